// The one key of the response cache: the route, the data versions its answer reads (edition or
// change-log checksums) and its canonical values. Every cached route builds its key here, so none
// can forget a checksum, and two requests share an entry exactly when these three agree.

/** What an answer was read from: an edition, a change log (anything with the checksum of its data). */
export interface DataVersion {
  readonly checksum: string;
}

/** A canonical value: what the answer depends on, already normalised (defaults applied, case folded where it does not matter). */
export type KeyValue = string | number | boolean | null | undefined | readonly KeyValue[] | { readonly [name: string]: KeyValue };

/**
 * `route` names the answer (the route template; routes that answer alike may share one), `data`
 * every data version the answer reads, `values` everything else it depends on. The values are
 * written as JSON, so no value (a `q` holding `|`) can run into the next; an undefined one is
 * written as null. Nothing of the caller goes in: no cached answer depends on who asks (a
 * caller's rate-limit headers are added to each answer after the cache).
 */
export function cacheKey(route: string, data: DataVersion | readonly DataVersion[], values: readonly KeyValue[]): string {
  let checksums: string;
  if (isList(data)) {
    checksums = "";
    for (let i = 0; i < data.length; i++) checksums += (i > 0 ? "," : "") + (data[i] as DataVersion).checksum;
  } else {
    checksums = data.checksum;
  }
  return `${route}|${checksums}|${JSON.stringify(values)}`;
}

function isList(data: DataVersion | readonly DataVersion[]): data is readonly DataVersion[] {
  return Array.isArray(data);
}
