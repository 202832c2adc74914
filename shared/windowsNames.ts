/**
 * Names Windows does not take as plain file names (docs/security.md, round 6). ActGuy ships for Windows,
 * and a project is a file people pass around, so a name that means something else there is refused on
 * every platform, with the reason, rather than working on Linux and misbehaving on a colleague's PC:
 *
 * - device names (`CON`, `PRN`, `AUX`, `NUL`, `COM0`-`COM9`, `LPT0`-`LPT9`, their superscript-digit forms,
 *   `CONIN$`, `CONOUT$`), with any extension and any letter case: `nul.mt3` is the null device there, so a
 *   build "writes" it and nothing is kept, and `con.mtn` reads the console;
 * - a name ending in `.` or a space: Windows drops them, so `walk.mtn.` is `walk.mtn`, an input;
 * - `:` (an alternate data stream: `walk.mtn:x` is a hidden stream of `walk.mtn`);
 * - a path starting with two separators: a UNC path (`\\host\share\x.mtn`) makes Windows connect to that
 *   host (and offer it the user's credentials) just to read a file a received project names; `\\?\` and
 *   `\\.\` reach the device namespace.
 *
 * Pure (shared/ has no Node). Control characters are refused elsewhere with their own message. The other
 * characters Windows forbids (`< > " | ? *`) are left to it: a name with one fails to open there, saying so,
 * rather than being another file (and a `"` in a path is what the report's JSON escaping is tested with).
 */
import { quoteJson } from './errors';

const DEVICE = /^(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3]|CONIN\$|CONOUT\$)$/i;

/** Why one file or folder name is not a name Windows keeps as it is, or undefined when it is. */
export function windowsNameProblem(name: string): string | undefined {
  if (name === '.' || name === '..' || name === '') return undefined;
  const stem = name.split('.')[0].replace(/ +$/, '');
  if (DEVICE.test(stem)) return `${quoteJson(name)} is a Windows device name (${stem.toUpperCase()}), not a file there`;
  if (/[. ]$/.test(name))
    return `${quoteJson(name)} ends in ${name.endsWith('.') ? 'a dot' : 'a space'}, which Windows drops (it would be another file there)`;
  if (name.includes(':'))
    return `${quoteJson(name)} holds ":", which on Windows names an alternate data stream of another file`;
  return undefined;
}

/** A path that starts with two separators: a UNC path (`\\host\share`), `\\?\` or `\\.\`, or `//host`. */
export function isNetworkPath(path: string): boolean {
  return /^[\\/]{2}/.test(path);
}

/**
 * Why a path a project names is not one Windows reads as that file, or undefined: a UNC or device-namespace
 * start, or any component that `windowsNameProblem` refuses. A drive (`C:`) at the start is allowed.
 */
export function windowsPathProblem(path: string): string | undefined {
  if (isNetworkPath(path))
    return `${quoteJson(path)} starts with two separators: a network (UNC) or device path, which Windows opens by connecting to that host`;
  const body = path.replace(/^[A-Za-z]:(?=[\\/]|$)/, '');
  for (const part of body.split(/[\\/]/)) {
    const problem = windowsNameProblem(part);
    if (problem) return problem;
  }
  return undefined;
}
