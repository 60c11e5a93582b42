// Shared by the importer tests: the ImportError a call throws.

import { ImportError } from "../../src/pipeline/import-error.js";

/** The ImportError `run` throws; anything else (or nothing) fails the test. */
export function importError(run: () => unknown): ImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("expected an ImportError, but the import succeeded");
}
