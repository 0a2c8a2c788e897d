package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/pflag"
	"golang.org/x/sync/errgroup"

	gltfexp "github.com/animbake/bake/export/gltf"
	jsonexp "github.com/animbake/bake/export/json"
	"github.com/animbake/bake/fidelity"
	"github.com/animbake/bake/format"
	bakekeys "github.com/animbake/bake/keys"
	"github.com/animbake/bake/manifest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// convertConfig holds the convert command's flags.
type convertConfig struct {
	out        string
	formats    []string
	fps        string
	timebase   float64
	tolerance  float64
	probes     int
	refine     int
	short      bool
	between    float64
	axes       string
	split      bool
	loopSuffix bool
	godot      int
	jobs       int
	quiet      bool
	verbose    bool
	failFast   bool
	textures   string
	common     importFlags
	inc        incFlags
}

// importFlags are the flags every command that reads files shares.
type importFlags struct {
	maxInflate   int64
	skeleton     string
	timing       string
	curveSeconds float64
	noMeshes     bool
	texturesFrom string
	shadows      bool
	animations   []string
	lod          int
}

func (f *importFlags) register(fs *pflag.FlagSet) {
	fs.Int64Var(&f.maxInflate, "max-inflate", format.DefaultMaxInflate, "refuse to decompress more than this many bytes per input (zlib, gzip, Yaz0)")
	fs.StringVar(&f.skeleton, "skeleton", "", "BFRES model file whose skeleton animation files use")
	fs.StringVar(&f.timing, "timing", "graph", "Virtools clip timing: graph (behaviour graphs) or frames")
	fs.Float64Var(&f.curveSeconds, "curve-seconds", 10, "seconds a follower takes to travel a 3D curve")
	fs.BoolVar(&f.noMeshes, "no-meshes", false, "animation only: no meshes, materials, textures, cameras or lights")
	fs.StringVar(&f.texturesFrom, "textures-from", "", "BFRES texture archive (X.Tex1.sbfres) for model files; default: beside the input")
	fs.BoolVar(&f.shadows, "shadows", false, "also convert shadow geometry (CCS shadow models), left out by default")
	fs.StringSliceVar(&f.animations, "animations", nil, "BFRES animation files converted with a model file; default: X_Animation.(s)bfres beside X.bfres")
	fs.IntVar(&f.lod, "lod", 0, "BFRES level of detail the meshes draw (0 the finest; the others go to extras)")
}

// parseFlags adds the import flags and --help to fs, parses args, prints
// the usage for --help and checks the import flags.
func parseFlags(fs *pflag.FlagSet, imp *importFlags, args []string, usage string, stdout io.Writer) error {
	imp.register(fs)
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, usage+fs.FlagUsages())
		return errHelp
	}
	return imp.check()
}

func (f *importFlags) check() error {
	if f.timing != "graph" && f.timing != "frames" {
		return usagef("--timing must be graph or frames, not %q", f.timing)
	}
	if !(f.curveSeconds > 0) {
		return usagef("--curve-seconds must be positive")
	}
	if f.maxInflate <= 0 {
		return usagef("--max-inflate must be positive")
	}
	if f.lod < 0 {
		return usagef("--lod must be 0 or more")
	}
	return nil
}

func (f *importFlags) options(warn func(string)) *format.Options {
	return &format.Options{MaxInflate: f.maxInflate, Skeleton: f.skeleton, Timing: f.timing,
		CurveSeconds: f.curveSeconds, NoMeshes: f.noMeshes, TexturesFrom: f.texturesFrom, Shadows: f.shadows,
		Animations: f.animations, LOD: f.lod, Warn: warn}
}

const convertUsage = `Usage: bake [flags] PATH...

Converts every recognised animation file in the given files and folders
(recursively) and writes the outputs under --out, mirroring the input tree.
Files no importer recognises are skipped (listed with -v).

Flags:
`

func runConvert(args []string, stdout, stderr io.Writer) error {
	var cfg convertConfig
	fs := convertFlags(&cfg)
	cfg.inc.register(fs)
	if err := parseFlags(fs, &cfg.common, args, mainUsage+"\n"+convertUsage, stdout); err != nil {
		return err
	}
	cfg.inc.options = outputOptions(fs)
	opts, err := cfg.check()
	if err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("no input paths given")
	}
	jobs, err := collect(fs.Args())
	if err != nil {
		return err
	}
	return convertAll(jobs, &cfg, opts, stdout, stderr)
}

// convertFlags defines the flags that say what to convert and how on a
// new flag set; bake check reads the same ones.
func convertFlags(cfg *convertConfig) *pflag.FlagSet {
	fs := pflag.NewFlagSet("bake", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVarP(&cfg.out, "out", "o", "baked", "output folder")
	fs.StringSliceVarP(&cfg.formats, "format", "f", []string{"glb"}, "output formats, a comma list of glb, gltf, json")
	fs.StringVar(&cfg.fps, "fps", "native", "output samples per second, or native (one per source frame)")
	fs.Float64Var(&cfg.timebase, "timebase", 0, "override the source frame rate (source frames per second)")
	fs.StringVar(&cfg.axes, "axes", "gltf", "output coordinates: gltf (converted) or source (the engine's own)")
	cfg.keyFlags(fs)
	fs.BoolVar(&cfg.split, "split", false, "write one output file per animation")
	fs.BoolVar(&cfg.loopSuffix, "loop-suffix", false, "append -loop to repeating and ping-pong animations' names, so Godot imports them as looping")
	fs.IntVar(&cfg.godot, "godot", 0, "also write the Godot 3 or 4 .import sidecar beside each glTF output (3 implies --loop-suffix)")
	fs.StringVar(&cfg.textures, "textures", "embed", "textures: embed (in the glTF's buffer), external (image files beside it) or none")
	fs.IntVarP(&cfg.jobs, "jobs", "j", runtime.NumCPU(), "files converted in parallel")
	fs.BoolVarP(&cfg.quiet, "quiet", "q", false, "print only errors")
	fs.BoolVarP(&cfg.verbose, "verbose", "v", false, "also list skipped files and every output written")
	fs.BoolVar(&cfg.failFast, "fail-fast", false, "stop at the first file that fails")
	return fs
}

func (cfg *convertConfig) check() (sample.Options, error) {
	var o sample.Options
	for _, f := range cfg.formats {
		switch f {
		case "glb", "gltf", "json":
		default:
			return o, usagef("unknown output format %q (want glb, gltf or json)", f)
		}
	}
	if len(cfg.formats) == 0 {
		return o, usagef("--format needs at least one of glb, gltf, json")
	}
	fps, err := parseFPS(cfg.fps)
	if err != nil {
		return o, err
	}
	if cfg.timebase < 0 {
		return o, usagef("--timebase must be positive")
	}
	switch cfg.textures {
	case gltfexp.TexturesEmbed, gltfexp.TexturesExternal, gltfexp.TexturesNone:
	default:
		return o, usagef("--textures must be embed, external or none, not %q", cfg.textures)
	}
	if cfg.axes != "gltf" && cfg.axes != "source" {
		return o, usagef("--axes must be gltf or source, not %q", cfg.axes)
	}
	if !(cfg.tolerance >= 0) || cfg.tolerance > 1e3 {
		return o, usagef("--tolerance must be a distance in metres in [0, 1000]")
	}
	if cfg.probes < 1 || cfg.probes > 256 || cfg.refine < 0 || cfg.refine > 6 {
		return o, usagef("--probes must be in [1, 256] and --refine in [0, 6]")
	}
	if cfg.jobs < 1 {
		return o, usagef("--jobs must be at least 1")
	}
	if cfg.godot != 0 && cfg.godot != 3 && cfg.godot != 4 {
		return o, usagef("--godot must be 3 or 4, not %d", cfg.godot)
	}
	if cfg.godot == 3 {
		cfg.loopSuffix = true // Godot 3 loops only clips whose names end in "loop"
	}
	return sample.Options{FPS: fps, Timebase: cfg.timebase, Axes: cfg.axes, LoopSuffix: cfg.loopSuffix}, nil
}

func parseFPS(s string) (float64, error) {
	if s == "native" || s == "" {
		return 0, nil
	}
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil || !(v > 0) || v > 10000 {
		return 0, usagef("--fps must be native or a rate in (0, 10000], not %q", s)
	}
	return v, nil
}

// job is one input file and where its outputs go (without extension).
type job struct {
	path string
	base string // output path relative to --out, without extension
}

// collect walks the inputs in lexical order and names each file's outputs,
// mirroring the tree under each folder argument.
func collect(paths []string) ([]job, error) {
	var jobs []job
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, usagef("%v", err)
		}
		if !st.IsDir() {
			jobs = append(jobs, job{path: p, base: stripExt(filepath.Base(p))})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(p, path)
			if err != nil {
				return err
			}
			jobs = append(jobs, job{path: path, base: stripExt(rel)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// Two inputs that differ only by extension keep it, so neither
	// overwrites the other.
	seen := map[string]int{}
	for _, j := range jobs {
		seen[strings.ToLower(j.base)]++
	}
	for i, j := range jobs {
		if seen[strings.ToLower(j.base)] > 1 {
			jobs[i].base = j.base + "_" + strings.TrimPrefix(filepath.Ext(j.path), ".")
		}
	}
	// Any clash left (the same relative path under two folder arguments)
	// gets a number, in input order.
	taken := map[string]bool{}
	for i, j := range jobs {
		base := j.base
		for n := 2; taken[strings.ToLower(base)]; n++ {
			base = fmt.Sprintf("%s_%d", j.base, n)
		}
		taken[strings.ToLower(base)] = true
		jobs[i].base = base
	}
	return jobs, nil
}

func stripExt(p string) string {
	return strings.TrimSuffix(p, filepath.Ext(p))
}

// result is what happened to one input.
type result struct {
	skipped  bool
	empty    bool // recognised, but nothing to convert (nothingToConvert)
	format   string
	outputs  []string
	bytes    int64 // written
	warnings []string
	err      error
	upToDate bool            // the manifest proved its outputs current
	uses     []manifest.Use  // other files the conversion looked for
	files    []manifest.File // outputs written, for the manifest
}

func convertAll(jobs []job, cfg *convertConfig, opts sample.Options, stdout, stderr io.Writer) error {
	inc, err := startIncremental(jobs, cfg, stderr)
	if err != nil {
		return err
	}
	jobs = inc.jobs
	results := make([]result, len(jobs))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopSignals := cleanupOnInterrupt(stderr)
	defer stopSignals()
	bar := newProgress(stderr, len(jobs), cfg.quiet)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.jobs)
	var failed sync.Once
	for i := range jobs {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil
			}
			if inc.fresh(i) {
				results[i].upToDate = true
				bar.step()
				return nil
			}
			results[i] = convertOne(jobs[i], cfg, opts)
			bar.step()
			if results[i].err != nil && cfg.failFast {
				failed.Do(cancel)
			}
			return nil
		})
	}
	_ = g.Wait()
	bar.done()
	nFailed, nOK, nSkipped, nUpToDate, nEmpty := 0, 0, 0, 0, 0
	for i, r := range results {
		for _, w := range r.warnings {
			if !cfg.quiet {
				fmt.Fprintf(stderr, "%s: warning: %s\n", jobs[i].path, w)
			}
		}
		switch {
		case r.upToDate:
			nUpToDate++
		case r.err != nil:
			nFailed++
			fmt.Fprintf(stderr, "%s: %v\n", jobs[i].path, r.err)
		case r.skipped:
			nSkipped++
			if cfg.verbose {
				fmt.Fprintf(stderr, "%s: skipped (not a recognised animation file)\n", jobs[i].path)
			}
		case r.empty:
			nEmpty++
			if !cfg.quiet {
				fmt.Fprintf(stderr, "%s: nothing to convert (no animation, node, curve or asset); no output written\n", jobs[i].path)
			}
		case r.format != "":
			nOK++
			if cfg.verbose {
				for _, o := range r.outputs {
					fmt.Fprintf(stdout, "%s -> %s\n", jobs[i].path, o)
				}
			}
		}
	}
	st, err := inc.finish(results, stderr)
	if err != nil {
		return err
	}
	if !cfg.quiet {
		empty := ""
		if nEmpty > 0 {
			empty = fmt.Sprintf(", %d with nothing to convert", nEmpty)
		}
		var total int64
		for _, r := range results {
			total += r.bytes
		}
		fmt.Fprintf(stderr, "bake: %d converted, %d up to date, %d failed, %d skipped%s, %d pruned%s, %s written\n",
			nOK, nUpToDate, nFailed, nSkipped, empty, st.pruned, st.orphanNote(), byteSize(total))
	}
	if nFailed > 0 || ctx.Err() != nil {
		return errSomeFailed
	}
	return nil
}

// convertOne decodes, bakes and writes one input; nothing is written when
// any step fails.
func convertOne(j job, cfg *convertConfig, opts sample.Options) (res result) {
	defer func() {
		if p := recover(); p != nil {
			res.err = fmt.Errorf("internal error (please report): %v", p)
		}
	}()
	var mu sync.Mutex
	warn := func(msg string) {
		mu.Lock()
		res.warnings = append(res.warnings, msg)
		mu.Unlock()
	}
	var uses usesRecorder
	files, fmtName, err := decodeRecorded(j.path, cfg.common.options(warn), &uses)
	res.uses = uses.list()
	if errors.Is(err, format.ErrUnknown) {
		res.skipped = true
		return res
	}
	res.format = fmtName
	if err != nil && len(files) == 0 {
		res.err = err
		return res
	}
	// An archive may return the members that decoded with the error of one
	// that did not: write them, and still report the failure.
	partial := err
	var outs []output
	content := 0
	for _, f := range files {
		if nothingToConvert(f) {
			continue
		}
		content++
		base := j.base
		if f.Name != "" {
			base = filepath.Join(j.base, sanitizePath(f.Name))
		}
		parts := []*model.File{f}
		names := []string{base}
		if cfg.split {
			parts, names = splitFile(f, base)
		}
		for k, part := range parts {
			baked, err := cfg.bake(part, opts)
			if err != nil {
				res.err = err
				return res
			}
			godotRename(baked, cfg.godot, warn)
			o, err := encodeAll(baked, names[k], cfg)
			if err != nil {
				res.err = err
				return res
			}
			side, warns, err := godotSidecars(baked, o, cfg.godot)
			if err != nil {
				res.err = err
				return res
			}
			for _, w := range warns {
				warn(w)
			}
			outs = append(append(outs, o...), side...)
		}
	}
	if content == 0 && partial == nil {
		res.empty = true
		return res
	}
	written, err := writeOutputs(cfg.out, outs)
	if err == nil && !cfg.inc.noManifest {
		res.files = outputFiles(outs)
	}
	res.outputs = written
	if err == nil {
		for _, o := range outs {
			res.bytes += int64(len(o.data))
		}
	}
	res.err = err
	if res.err == nil {
		res.err = partial
	}
	return res
}

// keyFlags adds the flags of error-bounded keys.
func (cfg *convertConfig) keyFlags(fs *pflag.FlagSet) {
	fs.Float64Var(&cfg.tolerance, "tolerance", fidelity.DefaultTolerance, "error bound of the keys in metres at 3 cm (0: every sample of the --fps grid)")
	fs.IntVar(&cfg.probes, "probes", 1, "probes per source frame where keys are checked and may go (1: the frames, the --tolerance 0 grid)")
	fs.IntVar(&cfg.refine, "refine", 0, "times to halve the probes where the motion bends between them (0-6)")
	fs.Float64Var(&cfg.between, "between", 0, "also bound the error at any time, not only at the probes, in metres (0: off; docs/fidelity.md)")
	fs.BoolVar(&cfg.short, "short-rotations", true, "rotation keys as normalized 16-bit integers where the rounding fits the tolerance (--short-rotations=false: floats)")
}

// bake bakes f on the --fps grid and, with a tolerance above 0, replaces
// every clip's keys by the fewest that stay within it (package keys).
func (cfg *convertConfig) bake(f *model.File, opts sample.Options) (*sample.Baked, error) {
	if cfg.tolerance <= 0 {
		return sample.Bake(f, opts)
	}
	opts.NoSamples = true
	b, err := sample.Bake(f, opts)
	if err != nil {
		return nil, err
	}
	return b, bakekeys.Reduce(f, b, bakekeys.Options{Tolerance: cfg.tolerance, PerFrame: cfg.probes, Refine: cfg.refine,
		ShortRotations: cfg.short, Between: cfg.between})
}

// decodePath opens, identifies and decodes one file, filling in the
// source facts every model file carries.
func decodePath(path string, o *format.Options) ([]*model.File, string, error) {
	return decodeRecorded(path, o, nil)
}

// decodeRecorded is decodePath noting in uses (when not nil) the other
// files the importer looks for.
func decodeRecorded(path string, o *format.Options, uses *usesRecorder) ([]*model.File, string, error) {
	in, closer, err := format.OpenFile(path)
	if err != nil {
		return nil, "", err
	}
	if uses != nil {
		uses.watch(in)
	}
	defer closer.Close()
	f, files, err := format.Decode(in, o)
	if err != nil && len(files) == 0 {
		return nil, f.Name, err
	}
	partial := err
	sum, err := fileSHA256(in)
	if err != nil {
		return nil, f.Name, err
	}
	for _, m := range files {
		m.Source = model.Source{Path: filepath.ToSlash(path), Format: f.Name, SHA256: sum}
		if o.NoMeshes {
			dropMeshes(m)
		}
	}
	return files, f.Name, partial
}

// dropMeshes makes the animation-only form of m (--no-meshes): no meshes,
// materials, textures, cameras or lights, whatever the importer read. Skins
// stay: they make a skeleton's bones an armature in the clients.
func dropMeshes(m *model.File) {
	m.Assets = model.Assets{Skins: m.Skins}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		n.Mesh, n.Skin, n.Camera, n.Light = "", "", "", ""
	}
}

func fileSHA256(in *format.Input) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(in.R, 0, in.Size)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// splitFile makes one model file per animation, named base_anim.
func splitFile(f *model.File, base string) ([]*model.File, []string) {
	var parts []*model.File
	var names []string
	used := map[string]bool{}
	for i := range f.Animations {
		part := *f
		part.Animations = f.Animations[i : i+1]
		if i > 0 {
			part.Curves = nil
		}
		name := base + "_" + sanitize(f.Animations[i].Name)
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%s_%d", base, sanitize(f.Animations[i].Name), n)
		}
		used[strings.ToLower(name)] = true
		parts = append(parts, &part)
		names = append(names, name)
	}
	if len(parts) == 0 {
		return []*model.File{f}, []string{base}
	}
	return parts, names
}

// output is one file to write, relative to --out.
type output struct {
	rel  string
	data []byte
}

func encodeAll(b *sample.Baked, base string, cfg *convertConfig) ([]output, error) {
	var outs []output
	images := map[string]bool{}
	opts := gltfexp.Options{Textures: cfg.textures, ImagePrefix: filepath.Base(base)}
	dir := filepath.Dir(base)
	addImages := func(files []gltfexp.File) {
		for _, im := range files {
			if rel := filepath.Join(dir, im.Name); !images[rel] {
				images[rel] = true
				outs = append(outs, output{rel, im.Data})
			}
		}
	}
	for _, f := range cfg.formats {
		switch f {
		case "glb":
			opts.Binary = true
			data, _, ims, err := gltfexp.EncodeFiles(b, opts)
			if err != nil {
				return nil, err
			}
			outs = append(outs, output{base + ".glb", data})
			addImages(ims)
		case "gltf":
			opts.Binary, opts.BinName = false, filepath.Base(base)+".bin"
			data, buf, ims, err := gltfexp.EncodeFiles(b, opts)
			if err != nil {
				return nil, err
			}
			outs = append(outs, output{base + ".gltf", data})
			if buf != nil {
				outs = append(outs, output{base + ".bin", buf})
			}
			addImages(ims)
		case "json":
			data, err := jsonexp.Encode(b)
			if err != nil {
				return nil, err
			}
			outs = append(outs, output{base + ".json", data})
		}
	}
	return outs, nil
}

// byteSize says a byte count exactly and, from 10 kB on, in kB, MB or GB
// too (SI units, 3 significant digits).
func byteSize(n int64) string {
	exact := fmt.Sprintf("%d bytes", n)
	f := float64(n)
	for _, u := range []string{"kB", "MB", "GB", "TB"} {
		f /= 1000
		if f < 1000 || u == "TB" {
			if n < 10000 {
				return exact
			}
			return fmt.Sprintf("%s (%.3g %s)", exact, f, u)
		}
	}
	return exact
}
