"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.globToRegExp = globToRegExp;
exports.globFiles = globFiles;
/**
 * The small glob the host needs for package.json `main` (`dist/functions/*.js`): `*`, `?`, `**`,
 * `{a,b}` and `[abc]`, matched against '/'-separated paths relative to a root. Node 20 has no
 * `fs.glob`, and the app's dependencies should not change for the host's sake.
 */
const node_fs_1 = __importDefault(require("node:fs"));
const node_path_1 = __importDefault(require("node:path"));
const MAGIC = /[*?[{]/;
/** The regular expression of one glob (the whole relative path must match). */
function globToRegExp(pattern) {
    let source = '';
    let i = 0;
    let braceDepth = 0;
    while (i < pattern.length) {
        const char = pattern[i];
        if (char === '*') {
            if (pattern[i + 1] === '*') {
                // `**/` matches zero or more directories; a trailing `**` matches anything below.
                if (pattern[i + 2] === '/') {
                    source += '(?:[^/]+/)*';
                    i += 3;
                }
                else {
                    source += '.*';
                    i += 2;
                }
                continue;
            }
            source += '[^/]*';
        }
        else if (char === '?') {
            source += '[^/]';
        }
        else if (char === '[') {
            const close = pattern.indexOf(']', i + 1);
            if (close < 0)
                source += '\\[';
            else {
                const body = pattern
                    .slice(i + 1, close)
                    .replace(/^!/, '^')
                    .replace(/\\/g, '\\\\');
                source += `[${body}]`;
                i = close;
            }
        }
        else if (char === '{') {
            braceDepth += 1;
            source += '(?:';
        }
        else if (char === '}' && braceDepth > 0) {
            braceDepth -= 1;
            source += ')';
        }
        else if (char === ',' && braceDepth > 0) {
            source += '|';
        }
        else {
            source += char.replace(/[.+^$()|\\]/g, '\\$&');
        }
        i += 1;
    }
    return new RegExp(`^${source}$`);
}
function walk(directory, relative, found) {
    let entries;
    try {
        entries = node_fs_1.default.readdirSync(directory, { withFileTypes: true });
    }
    catch {
        return;
    }
    for (const entry of entries) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.'))
            continue;
        const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory())
            walk(node_path_1.default.join(directory, entry.name), childRelative, found);
        else if (entry.isFile())
            found.push(childRelative);
    }
}
/**
 * Files under `root` matching `pattern`, as sorted '/'-separated relative paths.
 * A pattern without wildcards names one file (returned only if it exists).
 */
function globFiles(root, pattern) {
    const normalized = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
    if (!MAGIC.test(normalized)) {
        return node_fs_1.default.existsSync(node_path_1.default.join(root, normalized)) ? [normalized] : [];
    }
    // Walk only below the pattern's literal leading directories.
    const segments = normalized.split('/');
    const literal = [];
    for (const segment of segments.slice(0, -1)) {
        if (MAGIC.test(segment))
            break;
        literal.push(segment);
    }
    const base = literal.join('/');
    const found = [];
    walk(node_path_1.default.join(root, base), base, found);
    const regex = globToRegExp(normalized);
    return found.filter((file) => regex.test(file)).sort();
}
//# sourceMappingURL=glob.js.map