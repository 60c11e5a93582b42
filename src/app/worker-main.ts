// The worker thread's entry under `npm start` (the supervisor starts this file in each thread).

import { runWorker } from "./worker.js";

await runWorker();
