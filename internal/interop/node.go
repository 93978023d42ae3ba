package interop

import (
	"os"
	"path/filepath"
	"testing"
)

// NodeModulesEnv names the folder where .ci/install-peers installs npm
// packages (node_modules/ is inside it). By default it is squeeze-peers in
// the user's cache folder, outside the repository.
const NodeModulesEnv = "SQUEEZE_NODE_MODULES"

// NodeWS returns node with NODE_PATH set so that require("ws") loads the npm
// ws package (version 8) that .ci/install-peers installed.
func NodeWS(t testing.TB) *Peer {
	t.Helper()
	Peers(t)
	node := LookPath(t, "node", "nodejs")
	if node == nil {
		return nil
	}
	modules := filepath.Join(nodeModulesDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "ws", "package.json")); err != nil {
		Missing(t, "npm package ws", "not in "+modules, "bash .ci/install-peers, or npm install --prefix \"$"+NodeModulesEnv+"\" ws@8")
		return nil
	}
	node.Name = "node"
	node.Env = append(node.Env, "NODE_PATH="+modules)
	return node
}

// nodeModulesDir is $SQUEEZE_NODE_MODULES, else the same default that
// .ci/install-peers uses: ${XDG_CACHE_HOME:-$HOME/.cache}/squeeze-peers.
func nodeModulesDir() string {
	if dir := os.Getenv(NodeModulesEnv); dir != "" {
		return dir
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, "squeeze-peers")
}
