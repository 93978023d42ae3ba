// Package interop is the harness that squeeze's tests use to drive real
// peers: curl, ab, wrk, Python (websockets, brotli, zstandard), Node with the
// npm ws package, headless Chromium and nginx.
//
// Every finder takes the test and either returns a ready-to-use peer or ends
// the test. The peer suites run only when asked for, with SQUEEZE_PEERS=1 or
// SQUEEZE_INTEROP=require; otherwise the finder skips (see Peers), so that
// go test ./... needs nothing but Go. When they run and the peer is missing,
// the finder skips, naming the peer and how to install it, unless the
// environment has SQUEEZE_INTEROP=require, in which case it fails, so CI
// (which installs the peers with .ci/install-peers and sets both variables)
// cannot pass by skipping.
//
//	curl := interop.Curl(t)
//	out := curl.Run(t, "-sS", "--compressed", srv.URL)
//
//	py := interop.Python(t, "websockets", "zstandard")
//	server := interop.Start(t, py.Command("-u", "server.py", port), interop.OnLine("ready"))
//
//	base := interop.Nginx(t, "root "+dir+"; gzip on;").URL
//
//	dom := interop.Chromium(t).WaitDOM(t, srv.URL, "<title>done</title>")
//
// Long-running peers run in their own process group on 127.0.0.1 and are
// stopped, with every child they spawned, when the test ends; their output is
// shown when the test fails.
package interop
