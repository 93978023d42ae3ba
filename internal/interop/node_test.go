package interop

import (
	"strings"
	"testing"
)

func TestNodeWSLoadsWs(t *testing.T) {
	node := NodeWS(t)
	got := strings.TrimSpace(node.Run(t, "-e", `const ws = require("ws"); console.log(typeof ws.WebSocketServer)`))
	if got != "function" {
		t.Fatalf("require(\"ws\").WebSocketServer is %q, want function", got)
	}
}
