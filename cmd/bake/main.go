// Command bake converts game animation files into glTF 2.0 and JSON with
// each engine's exact evaluation rules. See README.md for every flag.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	_ "github.com/animbake/bake/import/all"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// usageError marks a command-line mistake (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errSomeFailed reports that at least one file did not convert (exit 1);
// the failures themselves have been printed.
var errSomeFailed = errors.New("some files failed")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	var err error
	cmd := "convert"
	if len(args) > 0 {
		switch args[0] {
		case "list", "eval", "plot", "check", "manifest", "stats", "view", "help":
			cmd, args = args[0], args[1:]
		}
	}
	switch cmd {
	case "list":
		err = runList(args, stdout, stderr)
	case "eval":
		err = runEval(args, stdout, stderr)
	case "plot":
		err = runPlot(args, stdout, stderr)
	case "check":
		err = runCheck(args, stdout, stderr)
	case "manifest":
		err = runManifest(args, stdout, stderr)
	case "stats":
		err = runStats(args, stdout, stderr)
	case "view":
		err = runView(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, mainUsage)
		return exitOK
	default:
		err = runConvert(args, stdout, stderr)
	}
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "bake: %s\nRun 'bake --help' for usage.\n", ue.msg)
		return exitUsage
	case errors.Is(err, errSomeFailed):
		return exitFailed
	default:
		fmt.Fprintf(stderr, "bake: %v\n", err)
		return exitFailed
	}
}

// errHelp is returned when --help was asked for and printed.
var errHelp = errors.New("help shown")

const mainUsage = `bake: bake game animations into glTF 2.0 and JSON, exactly as the engines play them.

Usage:
  bake [flags] PATH...                convert files and folders (recursively)
  bake list [--json] PATH...          list formats, animations, nodes and curves
  bake eval [--json] FILE --anim NAME --frames F,F,...|--times T,T,... [--axes source|gltf] [--world]
  bake eval [--json] FILE --curve NAME --progress P,P,... [--axes source|gltf]
  bake plot FILE --anim NAME [--node N] -o plot.svg
  bake check [flags] PATH... -o OUT   exit 0 when OUT is up to date with PATH... (by its manifest), else 1
  bake manifest merge A.json B.json ... -o M.json   join the manifests of CI shards
  bake stats [--json] [--tolerance M] PATH...  keys, bytes and measured error per clip
  bake view [--addr HOST:PORT] OUT...  browse OUT's outputs beside the engine's pose (a local web page)

Examples:
  bake -o baked testdata/demo                 every demo input to .glb under baked/
  bake -f glb,json --fps 30 levels/           GLB and JSON, resampled at 30 samples/s
  bake --split --loop-suffix -f gltf door.oni one .gltf per animation, Godot loop names
  bake --shard 2/4 -o baked levels/          the second of four CI shards (then bake manifest merge)
  bake list --json menulevel.nmo
  bake eval --world S01.CCS --anim ANM_x --frames 0,0.5,12

Run 'bake COMMAND --help' for the flags of one command.
`
