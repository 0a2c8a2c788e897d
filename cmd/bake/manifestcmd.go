package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/animbake/bake/manifest"
)

const manifestUsage = `Usage: bake manifest merge A.json B.json ... -o M.json

Joins the manifests of the shards of one conversion (bake --shard K/N)
into the manifest one unsharded run writes. Every shard must be there once,
all written by the same bake with the same options.

Flags:
`

func runManifest(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("bake manifest", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.StringP("out", "o", "", "the merged manifest to write")
	quiet := fs.BoolP("quiet", "q", false, "print only errors")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, manifestUsage+fs.FlagUsages())
		return errHelp
	}
	if fs.NArg() == 0 || fs.Arg(0) != "merge" {
		return usagef("bake manifest: expected the merge command: bake manifest merge A.json B.json ... -o M.json")
	}
	names := fs.Args()[1:]
	if len(names) == 0 {
		return usagef("bake manifest merge: no manifests given")
	}
	if *out == "" {
		return usagef("bake manifest merge: -o M.json is required")
	}
	ms := make([]*manifest.Manifest, len(names))
	for i, n := range names {
		m, err := manifest.ReadFile(n)
		if err != nil {
			return fmt.Errorf("%s: %v", n, err)
		}
		ms[i] = m
	}
	merged, err := manifest.Merge(names, ms)
	if err != nil {
		return err
	}
	data, err := merged.Encode()
	if err != nil {
		return err
	}
	if err := writeAtomic(*out, data); err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "bake manifest: merged %d manifests (%d inputs) into %s\n", len(names), len(merged.Inputs), *out)
	}
	return nil
}
