// Types of iribis/ajv: an ajv format plugin for iri, iri-reference, uri
// and uri-reference.
import type { Profile } from "./iribis";

declare function iribisFormats<A extends iribisFormats.FormatTarget>(
  ajv: A,
  formats?: readonly iribisFormats.FormatName[],
): A;

declare namespace iribisFormats {
  /** The formats iribis checks: `iri`, `iri-reference` (3987bis), `uri`, `uri-reference` (RFC 3986). */
  type FormatName = "iri" | "iri-reference" | "uri" | "uri-reference";
  /** The part of an Ajv instance the plugin uses. */
  interface FormatTarget {
    addFormat(name: string, format: { type: "string"; validate: (s: string) => boolean }): unknown;
  }
  /** Each format, the rule and the profile it is checked with. */
  const FORMATS: Readonly<Record<FormatName, Readonly<{ rule: string; profile: Profile }>>>;
  /** The plugin itself, by name. */
  const iribisFormats: <A extends FormatTarget>(ajv: A, formats?: readonly FormatName[]) => A;
}

export = iribisFormats;
