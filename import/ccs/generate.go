package ccs

//go:generate go run ./ccswrite/demogen -out ../../testdata/demo/ccs
