/**
 * The time zones a schedule or a backfill is chosen in: every zone the runtime knows (Intl.supportedValuesOf), under
 * its current IANA name, with its offset from UTC. ICU (and so Intl) still names a few zones by the CLDR's older
 * identifiers ("Asia/Calcutta", "Europe/Kiev"); IANA renamed them, and people look for the current names. Both names
 * are the same zone to Intl, so a schedule saved under either keeps working.
 */

/** CLDR identifiers Intl lists whose IANA name changed (IANA's `backward` file), to the current name. */
const RENAMED: Record<string, string> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** A zone's current IANA name ("Asia/Calcutta" → "Asia/Kolkata"); any other name as it is. */
export const currentZoneName = (zone: string): string => RENAMED[zone] ?? zone;

/** Every zone by its current name, and UTC, sorted. */
export function currentTimeZones(): string[] {
  return [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone").map(currentZoneName)])].sort();
}

/** The zone's offset from UTC at `at`: "UTC+05:30", "UTC-04:00", "UTC+00:00". */
export function zoneOffset(zone: string, at: Date): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const offset = name.replace(/^GMT/, "");
  return offset === "" ? "UTC+00:00" : `UTC${offset}`;
}

export interface ZoneChoice {
  value: string;
  label: string;
}

/** The zones as a select's options: "Asia/Kolkata (UTC+05:30)", its offset at `at`. */
export function timeZoneChoices(zones: readonly string[], at: Date): ZoneChoice[] {
  return zones.map((zone) => ({ value: zone, label: `${zone.replaceAll("_", " ")} (${zoneOffset(zone, at)})` }));
}
