// The one error every importer throws: where in which input file a problem is, and what it is.
// The build prints its message and stops; nothing here decides what happens next. A warning
// (a value the importer could default) is worded the same way but does not stop anything.

export class ImportError extends Error {
  override readonly name = "ImportError";
  readonly file: string;
  readonly line: number | undefined;
  readonly field: string | undefined;
  readonly reason: string;

  /**
   * @param file   the input as the user named it
   * @param line   1-based physical line in the file; undefined for whole-file problems
   * @param field  column (CSV) or field path (JSON), e.g. `three_point_shot`, `attributes.steal`
   * @param reason what is wrong, in words a person fixing the file can act on
   */
  constructor(file: string, line: number | undefined, field: string | undefined, reason: string) {
    super(formatImportMessage(file, line, field, reason));
    this.file = file;
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}

/** `2k26-curr.csv line 12, field three_point_shot: 104 is not an integer from 0 to 99`. */
export function formatImportMessage(file: string, line: number | undefined, field: string | undefined, reason: string): string {
  const where = [line === undefined ? file : `${file} line ${line}`];
  if (field !== undefined) where.push(`field ${field}`);
  return `${where.join(", ")}: ${reason}`;
}
