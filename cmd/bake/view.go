package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
	"github.com/animbake/bake/view"
)

const viewUsage = `Usage: bake view [--addr HOST:PORT] [--sources DIR] PATH...

Serves a page that lists the outputs of the conversion runs under each
output folder PATH (from their manifests), shows a chosen glTF with
three.js, plays its clips, and draws beside it the pose the engine gives
at the displayed time (the source file evaluated with the importer's own
rules, as bake eval --world does) and the error between them, as bake
stats measures it (docs/view.md). Prints the URL; stops on Ctrl-C.

Read-only: it serves only files under the PATHs and reads only the source
files their manifests name. It listens on 127.0.0.1 at a free port unless
--addr says otherwise.

Flags:
`

func runView(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("bake view", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0: a free one)")
	sources := fs.String("sources", ".", "folder the manifests' relative input paths are read from (where bake ran)")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, viewUsage+fs.FlagUsages())
		return errHelp
	}
	if fs.NArg() == 0 {
		return usagef("view needs an output folder (the -o of a conversion run)")
	}
	srv, err := view.New(view.Config{Paths: fs.Args(), Sources: *sources, Import: importAsRun, Version: bakeVersion()})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "bake view: %d outputs at http://%s/\n", len(srv.Outputs()), ln.Addr())
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		fmt.Fprintf(stderr, "bake view: warning: listening on %s, beyond this machine\n", a)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Serve(ctx, ln)
}

// importAsRun decodes path with the options a manifest recorded (every
// output-shaping flag by name, as the flag prints it) and returns the
// bake options they give.
func importAsRun(path string, values map[string]string, warn func(string)) ([]*model.File, sample.Options, error) {
	var cfg convertConfig
	fs := convertFlags(&cfg)
	cfg.common.register(fs)
	for name, v := range values {
		f := fs.Lookup(name)
		if f == nil {
			return nil, sample.Options{}, fmt.Errorf("the manifest's option %q is unknown to this bake", name)
		}
		if f.Value.String() == v {
			continue
		}
		if strings.HasSuffix(f.Value.Type(), "Slice") {
			v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
		}
		if err := fs.Set(name, v); err != nil {
			return nil, sample.Options{}, fmt.Errorf("the manifest's option %s=%s: %w", name, v, err)
		}
	}
	opts, err := cfg.check()
	if err != nil {
		return nil, opts, err
	}
	files, _, err := decodePath(path, cfg.common.options(warn))
	return files, opts, err
}
