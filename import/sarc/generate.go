package sarc

//go:generate go run ./sarcwrite/demogen -out ../../testdata/demo/sarc
