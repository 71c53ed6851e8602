// Compiled by types.test.mjs (tsc --noEmit): what the package's types
// allow, and (with @ts-expect-error) what they refuse.
import iribis = require("iribis");
import iribisFormats = require("iribis/ajv");
import Ajv2020 from "ajv/dist/2020";

const ok: boolean = iribis.isValid("http://h/", { profile: "rfc3986", rule: "URI" });
const r: iribis.IriRef = iribis.parse("http://h:1/");
const port: number | null = r.portNumber;
const host: "reg-name" | "IPv4address" | "IPv6address" | "IPvFuture" | null = r.hostType;
const report: iribis.CheckReport = iribis.check("http://h/", { severities: { preset: "strict", DOT_SEGMENT: "allow" } });
const codes: string[] = report.violations.map((v: iribis.Finding) => v.code);
const uri: string = iribis.toUri("http://é/", { idna: true, queryCharset: "utf-8" });
const iri: string = iribis.toIri("http://xn--9ca/");
const resolved: string = iribis.resolve("http://a/", "b", { strict: false });
const normal: string = iribis.normalize("http://a/", { level: "scheme" });
const level: iribis.Level | null = iribis.compare("a:", "b:", { ignoreFragment: true });
const rel: string = iribis.relativize("http://a/b", "http://a/c");
const validator = new iribis.Validator({ rule: "IRI" });
const fast: boolean = validator.isValid("http://h/");
const ajv = iribisFormats(new Ajv2020(), ["iri", "uri"]);
const formats = iribisFormats.FORMATS.iri.profile;
const read: iribis.Readings = iribis.readings("http://0x7f.1/", { profile: "rfc3987bis" });
const browser = read.readings.whatwg;
const differs: string[] = read.differences.map((d: iribis.ReadingDifference) => d.code);

// @ts-expect-error: no such profile
iribis.isValid("a", { profile: "rfc9999" });
// @ts-expect-error: idna is a boolean
iribis.toUri("a", { idna: "yes" });
// @ts-expect-error: no such format
iribisFormats(new Ajv2020(), ["email"]);

// @ts-expect-error: readings takes a profile, not a rule
iribis.readings("a", { rule: "IRI" });

export { fast, ok, port, host, codes, uri, iri, resolved, normal, level, rel, ajv, formats, browser, differs };
