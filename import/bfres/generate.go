package bfres

//go:generate go run ./bfreswrite/demogen -out ../../testdata/demo/bfres
