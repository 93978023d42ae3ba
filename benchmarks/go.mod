module github.com/squeezehttp/squeeze/benchmarks

go 1.26.0

replace github.com/squeezehttp/squeeze => ../

require (
	github.com/CAFxX/httpcompression v0.0.8
	github.com/coder/websocket v1.8.15
	github.com/go-chi/chi/v5 v5.5.0
	github.com/gorilla/websocket v1.5.3
	github.com/klauspost/compress v1.19.2
)

require (
	golang.org/x/net v0.63.0
	golang.org/x/text v0.44.0 // indirect
)

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/squeezehttp/squeeze v0.0.0-00010101000000-000000000000
)
