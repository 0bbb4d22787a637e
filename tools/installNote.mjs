// Run by `postinstall`. The project's .npmrc hides npm's warnings (loglevel=error) because npm
// judges `engines` by the Node that runs npm: on a Node older than 22 every Azure SDK package
// would print an EBADENGINE notice that is false of the scripts, which run on the pinned Node 22
// devDependency (docs/runtime.md). One line says so instead.
const agent = process.env.npm_config_user_agent ?? '';
const npmNode = /\bnode\/v(\d+)\./.exec(agent);
if (npmNode && Number(npmNode[1]) < 22) {
  console.log(
    `note: npm ran on Node ${/node\/(v[\d.]+)/.exec(agent)[1]}; the project's scripts run on ` +
      `Node ${process.versions.node} (the node devDependency). See docs/runtime.md.`,
  );
}
