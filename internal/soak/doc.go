// Package soak holds the measurements the hardening tests share: a
// goroutine count that waits for a server to settle, the process's resident
// set size, and a sampler of the heap's peak while a fault or a bomb is
// being handled.
//
// Its own test, soak_test.go, drives mixed traffic (every coding, Server-Sent
// Events, static sidecars, the fallback cache and many WebSocket
// connections) through one server and checks that errors stay at zero, that
// memory stays flat after warm-up, and that the goroutine count is back
// where it started once the clients have gone. The short run is part
// of go test ./...; a long one takes flags:
//
//	go test ./internal/soak -run TestSoak -soak=2m -soak.conns=1000 -v
package soak
