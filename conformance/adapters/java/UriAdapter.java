// Adapter of the iribis conformance suite (conformance/README.md) for Java's
// java.net.URI (RFC 2396, with RFC 2732's IPv6 literals; it also takes
// non-ASCII "other" characters). A single-file program: run it with
// `java conformance/adapters/java/UriAdapter.java` (Java 11 or later).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

public class UriAdapter {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, String> r;
            try {
                r = parse(line);
            } catch (RuntimeException e) {
                out.println("{\"id\":\"\",\"error\":" + quote("malformed request: " + e.getMessage()) + "}");
                out.flush();
                continue;
            }
            String answer;
            try {
                answer = answer(r);
            } catch (URISyntaxException | RuntimeException e) {
                answer = "\"error\":" + quote(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            out.println("{\"id\":" + quote(r.getOrDefault("id", "")) + "," + answer + "}");
            out.flush();
        }
    }

    static final String UNSUPPORTED = "\"unsupported\":true";

    static String answer(Map<String, String> r) throws URISyntaxException {
        String op = r.get("op"), profile = r.get("profile"), input = r.get("input"), rule = r.get("rule");
        if (!(profile.equals("rfc3986") || profile.equals("rfc3987") || profile.equals("rfc3987bis"))) {
            return UNSUPPORTED;
        }
        switch (op) {
            case "valid": {
                URI u;
                try {
                    u = new URI(input);
                } catch (URISyntaxException e) {
                    if (rule == null || !rule.matches("(URI|IRI)(-reference)?|absolute-(URI|IRI)|i?relative-ref")) return UNSUPPORTED;
                    return "\"valid\":false";
                }
                if (rule == null) return UNSUPPORTED;
                switch (rule) {
                    case "URI-reference": case "IRI-reference": return "\"valid\":true";
                    case "URI": case "IRI": return "\"valid\":" + u.isAbsolute();
                    case "absolute-URI": case "absolute-IRI": return "\"valid\":" + (u.isAbsolute() && u.getRawFragment() == null);
                    case "relative-ref": case "irelative-ref": return "\"valid\":" + !u.isAbsolute();
                    default: return UNSUPPORTED;
                }
            }
            case "components": {
                URI u = new URI(input);
                // An opaque URI (mailto:x) has no path in java.net.URI's
                // model: its scheme-specific part stands for it.
                String path = u.isOpaque() ? u.getRawSchemeSpecificPart() : u.getRawPath();
                Map<String, String> c = new LinkedHashMap<>();
                c.put("scheme", u.getScheme());
                c.put("authority", u.getRawAuthority());
                c.put("userinfo", u.getRawUserInfo());
                c.put("host", u.getHost());
                c.put("port", u.getPort() < 0 ? null : Integer.toString(u.getPort()));
                c.put("path", path == null ? "" : path);
                c.put("query", u.getRawQuery());
                c.put("fragment", u.getRawFragment());
                StringBuilder b = new StringBuilder("\"components\":{");
                boolean first = true;
                for (Map.Entry<String, String> e : c.entrySet()) {
                    if (!first) b.append(',');
                    first = false;
                    b.append(quote(e.getKey())).append(':').append(e.getValue() == null ? "null" : quote(e.getValue()));
                }
                return b.append('}').toString();
            }
            case "resolve":
                return "\"result\":" + quote(new URI(r.get("base")).resolve(new URI(input)).toString());
            case "normalize":
                return "\"result\":" + quote(new URI(input).normalize().toString());
            case "to-uri":
                if (profile.equals("rfc3986")) return UNSUPPORTED;
                return "\"result\":" + quote(new URI(input).toASCIIString());
            default:
                return UNSUPPORTED;
        }
    }

    /** A flat JSON object of strings and nulls (the protocol's requests). */
    static Map<String, String> parse(String s) {
        Map<String, String> m = new LinkedHashMap<>();
        int[] i = {0};
        ws(s, i);
        expect(s, i, '{');
        ws(s, i);
        if (s.charAt(i[0]) == '}') return m;
        while (true) {
            ws(s, i);
            String k = string(s, i);
            ws(s, i);
            expect(s, i, ':');
            ws(s, i);
            String v;
            if (s.startsWith("null", i[0])) {
                v = null;
                i[0] += 4;
            } else {
                v = string(s, i);
            }
            m.put(k, v);
            ws(s, i);
            char c = s.charAt(i[0]++);
            if (c == '}') return m;
            if (c != ',') throw new IllegalArgumentException("expected , or }");
        }
    }

    static void ws(String s, int[] i) {
        while (i[0] < s.length() && Character.isWhitespace(s.charAt(i[0]))) i[0]++;
    }

    static void expect(String s, int[] i, char c) {
        if (s.charAt(i[0]++) != c) throw new IllegalArgumentException("expected " + c);
    }

    static String string(String s, int[] i) {
        expect(s, i, '"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(i[0]++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(i[0]++);
            switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'u': b.append((char) Integer.parseInt(s.substring(i[0], i[0] + 4), 16)); i[0] += 4; break;
                default: b.append(e);
            }
        }
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c == 0x7f) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
