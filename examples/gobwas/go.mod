module github.com/squeezehttp/squeeze/examples/gobwas

go 1.24

require (
	github.com/gobwas/ws v1.4.0
	github.com/squeezehttp/squeeze v0.0.0
)

require (
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/klauspost/compress v1.19.2 // indirect
)

replace github.com/squeezehttp/squeeze => ../..
