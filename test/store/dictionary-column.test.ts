import t from "tap";
import { DictionaryColumn, NO_VALUE_CODE } from "../../src/store/dictionary-column.js";

t.test("one code per text in any case, 0 for rows without one, a code no row has for an unknown text", async (t) => {
  const values = ["Kentucky", undefined, "KENTUCKY", "Université de Montréal", "Universite de Montreal", "kentucky"];
  const column = new DictionaryColumn(values.length, (row) => values[row]);
  t.equal(column.size, 3);
  t.same([...column.codes], [1, NO_VALUE_CODE, 1, 2, 3, 1]);
  t.equal(column.codeOf("kEnTuCkY"), 1);
  t.equal(column.codeOf("université de montréal"), 2, "accents count: exact apart from case");
  const unknown = column.codeOf("Duke");
  t.ok(unknown > column.size && ![...column.codes].includes(unknown));
  t.ok(column.codes instanceof Uint16Array, "sized by its largest code");
});

t.test("more than 65,535 distinct texts widen the column to 32 bits", async (t) => {
  const column = new DictionaryColumn(70_000, (row) => `school ${row}`);
  t.ok(column.codes instanceof Uint32Array);
  t.equal(column.codes[69_999], 70_000);
  t.equal(column.codeOf("SCHOOL 69999"), 70_000);
});
