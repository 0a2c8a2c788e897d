module github.com/animbake/bake

go 1.26.0

require (
	github.com/qmuntal/gltf v0.29.0
	github.com/spf13/pflag v1.1.0
	golang.org/x/sync v0.25.0
)
