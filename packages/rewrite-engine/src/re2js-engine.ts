import { RE2JS } from 're2js';
import type { CompiledRegex, MatchVisitor, RegexEngine } from './regex-engine.js';

class Re2jsRegex implements CompiledRegex {
  constructor(private readonly re: RE2JS) {}

  test(text: string): boolean {
    return this.re.test(text);
  }

  forEachMatch(text: string, visit: MatchVisitor): void {
    const matcher = this.re.matcher(text);
    while (matcher.find()) {
      if (!visit(matcher.start(), matcher.end())) return;
    }
  }
}

/**
 * The default engine: re2js (pure JavaScript RE2, linear time, UTF-16 offsets), with no flags,
 * so matching is case-sensitive, `.` excludes `\n`, `$` is the absolute end and `\b`, `\w`,
 * `\d`, `\s` are ASCII.
 */
export const re2jsEngine: RegexEngine = {
  name: 're2js',
  compile(source: string): CompiledRegex | null {
    try {
      return new Re2jsRegex(RE2JS.compile(source));
    } catch {
      return null;
    }
  },
};
