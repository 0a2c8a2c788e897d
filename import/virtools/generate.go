package virtools

//go:generate go run ./vtwrite/demogen -out ../../testdata/demo/virtools
