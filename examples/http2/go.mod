module github.com/squeezehttp/squeeze/examples/http2

go 1.26.0

require github.com/squeezehttp/squeeze v0.0.0

require (
	github.com/klauspost/compress v1.19.2 // indirect
	golang.org/x/net v0.63.0
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/squeezehttp/squeeze => ../..
