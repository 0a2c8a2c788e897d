// Package demofiles is the one way the format writers' demo generators
// put their named files into a folder, so `go generate` writes every demo
// input the same way and the tests can compare against the same type.
package demofiles

import (
	"flag"
	"log"
	"os"
	"path/filepath"
)

// File is a demo input: the file name it is written under and its bytes.
type File struct {
	Name string
	Data []byte
}

// Write writes each file into dir, creating dir if needed.
func Write(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Main is the body of a demogen command: it parses the flags (an -out
// directory defaulting to defaultOut, plus any the caller defined before),
// then writes files() there, exiting on failure. files is called after
// the flags are parsed, so it may read them.
func Main(defaultOut string, files func() []File) {
	out := flag.String("out", defaultOut, "directory to write the files into")
	flag.Parse()
	if err := Write(*out, files()); err != nil {
		log.Fatal(err)
	}
}
