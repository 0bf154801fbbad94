/**
 * Dates as feeds write them, to epoch milliseconds: RFC 822 / RFC 2822
 * (RSS `pubDate`), ISO 8601 and its W3C profile (Atom, `dc:date`,
 * `dcterms:*`), and the variants feeds in the wild use. Never the host's
 * time zone: a date without a zone is UTC.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Named zones of RFC 822 and the European, Asian, Pacific and North American ones feeds use, in hours east of UTC. */
const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  west: 1,
  bst: 1,
  cet: 1,
  cest: 2,
  // Middle European Time and its summer time, as German, Austrian and Swiss servers write them (MEZ/MESZ in German).
  met: 1,
  mest: 2,
  mez: 1,
  mesz: 2,
  eet: 2,
  eest: 3,
  msk: 3,
  hkt: 8,
  sgt: 8,
  awst: 8,
  kst: 9,
  acst: 9.5,
  acdt: 10.5,
  jst: 9,
  aest: 10,
  aedt: 11,
  nzst: 12,
  nzdt: 13,
  ast: -4,
  adt: -3,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
  akst: -9,
  akdt: -8,
  hst: -10,
  at: -4,
  et: -5,
  ct: -6,
  mt: -7,
  pt: -8,
};

/**
 * RFC 822's military zones as that RFC defines them: A..I and K..M are
 * 1..12 hours west, N..Y 1..12 hours east, Z is UTC, J is unused. (RFC 2822
 * notes the signs were often implemented reversed; feed parsers keep 822's.)
 */
function militaryHours(letter: string): number | null {
  const code = letter.charCodeAt(0);
  if (letter === 'z') return 0;
  if (letter >= 'a' && letter <= 'i') return -(code - 96);
  if (letter >= 'k' && letter <= 'm') return -(code - 97);
  if (letter >= 'n' && letter <= 'y') return code - 109;
  return null;
}

/** Minutes east of UTC of a zone written as a name, a military letter or `±hh[:]mm`; undefined when unknown. */
function zoneMinutes(zone: string | undefined): number | undefined {
  if (!zone) return 0;
  const numeric = /^(?:(?:ut|utc|gmt))?([+-])(\d{1,2}):?(\d{2})?$/i.exec(zone);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return numeric[1] === '-' ? -minutes : minutes;
  }
  const name = zone.toLowerCase();
  if (Object.hasOwn(ZONES, name)) return ZONES[name]! * 60;
  if (name.length === 1) {
    const hours = militaryHours(name);
    return hours === null ? undefined : hours * 60;
  }
  return undefined;
}

function utc(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, offsetMinutes: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  const time = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), ms) - offsetMinutes * 60_000;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day) return null; // 31 April and the like
  return Number.isFinite(time) ? time : null;
}

const fullYear = (year: string) => {
  const y = Number(year);
  if (year.length > 2) return y;
  return y < 50 ? 2000 + y : 1900 + y; // RFC 2822 4.3
};

/**
 * RFC 822 and its relatives: `[Tue,] 24 Nov 2026 10:00[:00] [zone]`, with
 * full or abbreviated day and month names, two- or four-digit years, and a
 * zone that is a name, a military letter, `±hhmm` or `±hh:mm` (none: UTC).
 * Also the asctime order (`Tue Nov 24 10:00:00 2026`) some feeds write.
 */
export function parseRfc822(value: string): number | null {
  const text = value
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?\([^)]*\)$/, '')
    .replace(/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,? ?/i, '');
  const zone = '((?:ut|utc|gmt)?[+-]\\d{1,2}:?\\d{2}|[a-z]{1,5})?';
  const time = '(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?';
  const rfc = new RegExp(`^(\\d{1,2})[ -]([a-z]{3,9})\\.?[ -](\\d{2,4})(?:,? ${time})? ?${zone}\\.?$`, 'i').exec(text);
  if (rfc) {
    const month = MONTHS.indexOf(rfc[2]!.slice(0, 3).toLowerCase()) + 1;
    const offset = zoneMinutes(rfc[7]);
    if (month === 0 || offset === undefined) return null;
    return utc(fullYear(rfc[3]!), month, Number(rfc[1]), Number(rfc[4] ?? 0), Number(rfc[5] ?? 0), Number(rfc[6] ?? 0), 0, offset);
  }
  const asc = new RegExp(`^([a-z]{3,9}) (\\d{1,2}),? ${time} ${zone} ?(\\d{4})$`, 'i').exec(text);
  if (asc) {
    const month = MONTHS.indexOf(asc[1]!.slice(0, 3).toLowerCase()) + 1;
    const offset = zoneMinutes(asc[6]);
    if (month === 0 || offset === undefined) return null;
    return utc(Number(asc[7]), month, Number(asc[2]), Number(asc[3]), Number(asc[4]), Number(asc[5] ?? 0), 0, offset);
  }
  return null;
}

/**
 * ISO 8601 as feeds write it: `2026-11-24T10:00:00Z`, with or without
 * seconds, fractions, `T` (a space or lower case), separators (basic format
 * `20261124T100000Z`), and a zone `Z`, `±hh`, `±hhmm` or `±hh:mm` (none:
 * UTC); also a bare date, `2026-11` and `2026`.
 */
export function parseIso8601(value: string): number | null {
  const match = /^(\d{4})(?:-?(\d{2})(?:-?(\d{2})(?:[t ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?)? ?(z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  if (zone && !hour) return null;
  const offset = zoneMinutes(zone && zone.length === 3 ? `${zone}00` : zone);
  if (offset === undefined) return null;
  const ms = fraction ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
  return utc(Number(year), Number(month ?? 1), Number(day ?? 1), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), ms, offset);
}

/** A feed's date in any of the forms above, or null when it is none of them (or longer than any date). */
export function parseFeedDate(value: string | null | undefined): number | null {
  if (!value?.trim() || value.length > 200) return null;
  return parseIso8601(value) ?? parseRfc822(value);
}
