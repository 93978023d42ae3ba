module github.com/squeezehttp/squeeze

go 1.24

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/klauspost/compress v1.19.2
)
