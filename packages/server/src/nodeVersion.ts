/** The Node.js line the server runs on; `.node-version` pins the exact release that `npm start` brings. */
export const NODE_MAJOR = 24;

/**
 * Why this Node.js cannot run the server, or null when it can: the native addons are built for the pinned
 * runtime, and an older line (Debian's 20, out of support) would fail later with a less helpful message.
 */
export function unsupportedNode(version = process.version): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);
  if (major >= NODE_MAJOR) return null;
  return (
    `Examhall runs on Node.js ${NODE_MAJOR}; this is ${version}. \`npm start\` and \`npm run examhall\` bring the ` +
    `pinned runtime into .runtime/ and use it; to run by hand, put it first on your path: ` +
    `export PATH="$PWD/.runtime/bin:$PATH"`
  );
}
