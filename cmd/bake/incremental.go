package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/manifest"
)

// incFlags are the flags of incremental and sharded runs (docs/manifest.md).
type incFlags struct {
	manifest   string
	noManifest bool
	force      bool
	prune      bool
	shard      string
	// options are the output-shaping flags' values (outputOptions).
	options map[string]string
}

func (f *incFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.manifest, "manifest", "", "the run's manifest (default <out>/"+manifest.DefaultName+")")
	fs.BoolVar(&f.noManifest, "no-manifest", false, "neither read nor write a manifest: convert everything")
	fs.BoolVar(&f.force, "force", false, "convert every input even when the manifest says it is up to date")
	fs.BoolVar(&f.prune, "prune", false, "delete outputs whose inputs are gone or no longer produce them")
	fs.StringVar(&f.shard, "shard", "", "convert only shard K of N (K/N) of the inputs, for CI matrices")
}

// outputNeutralFlags are the flags that never change an output's bytes.
// Every other flag's value is recorded in the manifest's options, so a
// new flag that shapes output (--tolerance, --lod, ...) is covered without
// any change here; a new flag that does not (like --jobs) belongs in this
// list, or changing it reconverts everything.
var outputNeutralFlags = map[string]bool{
	"out": true, "jobs": true, "quiet": true, "verbose": true, "fail-fast": true, "help": true,
	"manifest": true, "no-manifest": true, "force": true, "prune": true, "shard": true,
}

// outputOptions returns the values of fs's flags that shape output bytes,
// by name, as the flags print them.
func outputOptions(fs *pflag.FlagSet) map[string]string {
	values := map[string]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		if !outputNeutralFlags[f.Name] {
			values[f.Name] = f.Value.String()
		}
	})
	return values
}

// manifestPath returns the manifest's path for the output folder out.
func (f *incFlags) manifestPath(out string) string {
	if f.manifest != "" {
		return f.manifest
	}
	return filepath.Join(out, manifest.DefaultName)
}

// incremental is the manifest side of one conversion run: it decides
// which inputs are up to date, records what the others produced, deals
// with outputs no input produces any more, and writes the new manifest.
type incremental struct {
	on      bool
	cfg     *convertConfig
	path    string
	shard   *manifest.Shard
	options manifest.Options
	version string
	old     *manifest.Manifest // nil: no (valid) manifest
	trusted bool               // old's version and options match and no --force
	oldBy   map[string]*manifest.Input
	jobs    []job
	all     map[string]bool // every input of the run, in any shard
	sums    []fileSum       // per job: the input's size and hash
	files   *fileSums
	cache   *manifest.Cache
}

// fileSum is a file's size and SHA-256, or that it is absent.
type fileSum struct {
	size   int64
	sha256 string
	absent bool
	err    error
}

// startIncremental reads the previous manifest and keeps the jobs of this
// run's shard. Problems with the manifest are reported and make every
// input stale; only a file at the manifest's place that is not a bake
// manifest at all stops the run, so it is never overwritten.
func startIncremental(jobs []job, cfg *convertConfig, stderr io.Writer) (*incremental, error) {
	inc := &incremental{cfg: cfg, files: &fileSums{m: map[string]*fileSumOnce{}}, all: map[string]bool{}}
	if cfg.inc.noManifest && (cfg.inc.prune || cfg.inc.manifest != "") {
		return nil, usagef("--prune and --manifest need the manifest that --no-manifest turns off")
	}
	if cfg.inc.shard != "" {
		s, err := manifest.ParseShard(cfg.inc.shard)
		if err != nil {
			return nil, usagef("--shard: %v", err)
		}
		inc.shard = &s
	}
	for _, j := range jobs {
		key := filepath.ToSlash(j.path)
		if inc.all[key] {
			// The same file reached twice (bake dir dir/sub): the
			// manifest has one entry per input, so it converts once,
			// under the name of its first mention.
			if !cfg.quiet {
				fmt.Fprintf(stderr, "bake: %s: given twice, converted once\n", j.path)
			}
			continue
		}
		inc.all[key] = true
		if inc.shard.Holds(format.GroupKey(j.path)) {
			inc.jobs = append(inc.jobs, j)
		}
	}
	inc.sums = make([]fileSum, len(inc.jobs))
	if cfg.inc.noManifest {
		return inc, nil
	}
	inc.on = true
	inc.path = cfg.inc.manifestPath(cfg.out)
	inc.options = manifest.NewOptions(cfg.inc.options)
	inc.version = bakeVersion()
	inc.cache = manifest.OpenCache(cfg.out)
	old, err := manifest.ReadFile(inc.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		own, oerr := ownManifest(inc.path)
		if oerr != nil {
			return nil, oerr
		}
		if !own {
			return nil, fmt.Errorf("%s is not a bake manifest: not overwriting it (choose another --manifest or remove it)", inc.path)
		}
		fmt.Fprintf(stderr, "bake: warning: %s: %v; ignoring it: converting everything\n", inc.path, err)
	default:
		inc.old = old
	}
	if inc.old == nil {
		return inc, nil
	}
	inc.oldBy = map[string]*manifest.Input{}
	for i := range old.Inputs {
		inc.oldBy[old.Inputs[i].Path] = &old.Inputs[i]
	}
	inc.trusted = !cfg.inc.force
	switch {
	case old.Bake != inc.version:
		inc.trusted = false
		if !cfg.quiet {
			fmt.Fprintf(stderr, "bake: %s was written by bake %s, this is %s: converting everything\n", inc.path, old.Bake, inc.version)
		}
	case old.Options.SHA256 != inc.options.SHA256:
		inc.trusted = false
		if !cfg.quiet {
			fmt.Fprintf(stderr, "bake: options changed since %s (%s): converting everything\n", inc.path, strings.Join(old.Options.Changed(inc.options), ", "))
		}
	}
	return inc, nil
}

// ownManifest reports whether the file at path may be replaced by a new
// manifest: it is empty, or JSON whose schema is a bake manifest's (of any
// version), or damaged JSON that names bake's schema near its start, as
// a damaged manifest bake wrote does.
func ownManifest(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, manifest.MaxSize))
	if err != nil {
		return false, err
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if json.Unmarshal(data, &probe) == nil {
		return strings.HasPrefix(probe.Schema, "bake-manifest/"), nil
	}
	return len(bytes.TrimSpace(data)) == 0 || bytes.Contains(data[:min(len(data), 4096)], []byte(`"bake-manifest/`)), nil
}

// fresh hashes job i's input and reports whether the previous manifest
// proves its outputs current: the same input bytes, the same output base,
// every file it used unchanged (or still absent), and every output present
// with its recorded size and hash. Outputs are checked through the hash
// cache: a file whose size and modification time are the ones remembered
// is not read again.
func (inc *incremental) fresh(i int) bool {
	if !inc.on {
		return false
	}
	j := inc.jobs[i]
	inc.sums[i] = inc.files.sum(j.path)
	s := inc.sums[i]
	if !inc.trusted || s.err != nil || s.absent {
		return false
	}
	e := inc.oldBy[filepath.ToSlash(j.path)]
	if e == nil || e.Error != "" || e.Size != s.size || e.SHA256 != s.sha256 || e.Base != filepath.ToSlash(j.base) {
		return false
	}
	for _, u := range e.Uses {
		if !inc.files.sum(filepath.FromSlash(u.Path)).matches(u) {
			return false
		}
	}
	for _, o := range e.Outputs {
		if ok, _, _ := inc.cache.Verify(o.Path, o.Size, o.SHA256); !ok {
			return false
		}
	}
	return true
}

func (s fileSum) matches(u manifest.Use) bool {
	if s.err != nil {
		return false
	}
	if u.Absent || s.absent {
		return u.Absent && s.absent
	}
	return s.size == u.Size && s.sha256 == u.SHA256
}

// fileSums hashes each file once per run, however many inputs use it.
type fileSums struct {
	mu sync.Mutex
	m  map[string]*fileSumOnce
}

type fileSumOnce struct {
	once sync.Once
	sum  fileSum
}

func (f *fileSums) sum(path string) fileSum {
	key := filepath.Clean(path)
	f.mu.Lock()
	e := f.m[key]
	if e == nil {
		e = &fileSumOnce{}
		f.m[key] = e
	}
	f.mu.Unlock()
	e.once.Do(func() { e.sum = hashFile(key) })
	return e.sum
}

func hashFile(path string) fileSum {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileSum{absent: true}
	}
	if err != nil {
		return fileSum{err: err}
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fileSum{err: fmt.Errorf("%s is not a regular file", path)}
	}
	n, sum, err := manifest.Sum(f)
	return fileSum{size: n, sha256: sum, err: err}
}

// usesRecorder notes every other file an importer looks for while one
// input converts (format.Input.OpenSibling): its size and hash as read, or
// that it was absent (then its arrival makes the input stale).
type usesRecorder struct {
	mu   sync.Mutex
	uses map[string]manifest.Use
}

// watch makes in's sibling opener report to r.
func (r *usesRecorder) watch(in *format.Input) {
	open := in.OpenSibling
	if open == nil {
		return
	}
	in.OpenSibling = func(p string) (*format.Input, error) {
		s, err := open(p)
		u := manifest.Use{Path: filepath.ToSlash(format.SiblingPath(in.Path, p))}
		if err == nil {
			u.Size, u.SHA256, err = manifest.Sum(io.NewSectionReader(s.R, 0, s.Size))
			if err != nil {
				return nil, err
			}
		} else {
			// Unreadable counts as absent: the file's later arrival or
			// repair makes the input stale, so it converts again.
			u.Absent = true
		}
		r.mu.Lock()
		if r.uses == nil {
			r.uses = map[string]manifest.Use{}
		}
		r.uses[u.Path] = u
		r.mu.Unlock()
		return s, err
	}
}

func (r *usesRecorder) list() []manifest.Use {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []manifest.Use
	for _, u := range r.uses {
		out = append(out, u)
	}
	return out
}

// outputFiles describes outputs about to be written, for the manifest.
func outputFiles(outs []output) []manifest.File {
	files := make([]manifest.File, len(outs))
	for i, o := range outs {
		files[i] = manifest.File{Path: filepath.ToSlash(o.rel), Size: int64(len(o.data)), SHA256: manifest.SumBytes(o.data)}
	}
	return files
}

// finishStats counts what finish did with outputs no input produces.
type finishStats struct {
	pruned, orphans int
}

// finish records the run: a manifest entry per converted, failed or up to
// date input of this shard, the outputs left over from inputs that are
// gone or renamed (deleted with --prune, else listed and kept in the
// manifest until they are), then the manifest and the hash cache, each
// written atomically.
func (inc *incremental) finish(results []result, stderr io.Writer) (finishStats, error) {
	var st finishStats
	if !inc.on {
		return st, nil
	}
	m := &manifest.Manifest{Bake: inc.version, Options: inc.options, Shard: inc.shard}
	owner := map[string]string{}
	for i, r := range results {
		e, ok := inc.entry(i, r)
		if !ok {
			continue
		}
		kept := e.Outputs[:0]
		for _, o := range e.Outputs {
			if prev, dup := owner[o.Path]; dup {
				e.Error = fmt.Sprintf("output %s is also written by %s; rename one of the inputs", o.Path, prev)
				fmt.Fprintf(stderr, "%s: %s\n", e.Path, e.Error)
				continue
			}
			owner[o.Path] = e.Path
			kept = append(kept, o)
		}
		e.Outputs = kept
		m.Inputs = append(m.Inputs, e)
	}
	for _, o := range inc.leftovers(owner) {
		rel := filepath.FromSlash(o.Path)
		full := filepath.Join(inc.cfg.out, rel)
		if !inc.cfg.inc.prune {
			st.orphans++
			m.Orphans = append(m.Orphans, o)
			if !inc.cfg.quiet {
				why := "which is gone"
				if inc.all[o.Input] {
					why = "which no longer writes it"
				}
				fmt.Fprintf(stderr, "bake: %s: left over from %s, %s (--prune deletes it)\n", full, o.Input, why)
			}
			continue
		}
		if ok, _, _ := inc.cache.Verify(o.Path, o.Size, o.SHA256); !ok {
			fmt.Fprintf(stderr, "bake: warning: %s changed since bake wrote it: not pruned\n", full)
			continue
		}
		if err := os.Remove(full); err != nil {
			return st, err
		}
		st.pruned++
		if inc.cfg.verbose {
			fmt.Fprintf(stderr, "bake: pruned %s (left over from %s)\n", full, o.Input)
		}
		removeEmptyDirs(inc.cfg.out, filepath.Dir(full))
	}
	data, err := m.Encode()
	if err != nil {
		return st, fmt.Errorf("manifest %s: %v", inc.path, err)
	}
	if err := writeAtomic(inc.path, data); err != nil {
		return st, err
	}
	for _, e := range m.Inputs {
		for _, o := range e.Outputs {
			inc.cache.Keep(o.Path)
		}
	}
	// The cache only saves time: a failure to write it costs the next run
	// some hashing, nothing else.
	_ = writeAtomic(filepath.Join(inc.cfg.out, manifest.CacheName), inc.cache.Encode())
	return st, nil
}

// entry is job i's manifest record after this run, and false when it has
// none (a skipped file, or a new input that could not be read).
func (inc *incremental) entry(i int, r result) (manifest.Input, bool) {
	j := inc.jobs[i]
	key := filepath.ToSlash(j.path)
	old := inc.oldBy[key]
	s := inc.sums[i]
	switch {
	case r.upToDate:
		return cloneInput(*old), true
	case r.skipped:
		return manifest.Input{}, false
	case r.format == "" && r.err == nil:
		// Not run (--fail-fast stopped the batch): what the old manifest
		// said still describes the files on disk.
		if old == nil {
			return manifest.Input{}, false
		}
		return cloneInput(*old), true
	}
	e := manifest.Input{Path: key, Size: s.size, SHA256: s.sha256, Format: r.format,
		Base: filepath.ToSlash(j.base), Uses: r.uses, Outputs: r.files}
	if s.err != nil || s.absent {
		if old == nil {
			return manifest.Input{}, false
		}
		e.Size, e.SHA256 = old.Size, old.SHA256
	}
	if r.err != nil {
		e.Error = r.err.Error()
		// A failed input keeps the outputs of its last good conversion
		// that it did not rewrite: they stay until it converts again.
		if old != nil {
			written := map[string]bool{}
			for _, f := range e.Outputs {
				written[f.Path] = true
			}
			for _, f := range old.Outputs {
				if !written[f.Path] {
					if _, exists, _ := inc.cache.Verify(f.Path, f.Size, f.SHA256); exists {
						e.Outputs = append(e.Outputs, f)
					}
				}
			}
		}
		if e.Format == "" {
			e.Format = "unknown"
			if old != nil {
				e.Format = old.Format
			}
		}
	}
	for _, f := range r.files {
		inc.cache.Note(f.Path, f.SHA256)
	}
	return e, true
}

func cloneInput(in manifest.Input) manifest.Input {
	in.Uses = slices.Clone(in.Uses)
	in.Outputs = slices.Clone(in.Outputs)
	return in
}

// leftovers are the outputs of the previous manifest, in this shard, that
// no input of this run produces and that are still on disk: outputs of
// inputs that are gone, renamed outputs, and orphans kept from before.
func (inc *incremental) leftovers(owner map[string]string) []manifest.Orphan {
	if inc.old == nil {
		return nil
	}
	var out []manifest.Orphan
	seen := map[string]bool{}
	add := func(f manifest.File, input string) {
		if _, owned := owner[f.Path]; owned || seen[f.Path] || !inc.shard.Holds(format.GroupKey(filepath.FromSlash(input))) {
			return
		}
		seen[f.Path] = true
		if _, exists, _ := inc.cache.Verify(f.Path, f.Size, f.SHA256); exists {
			out = append(out, manifest.Orphan{File: f, Input: input})
		}
	}
	for _, e := range inc.old.Inputs {
		for _, f := range e.Outputs {
			add(f, e.Path)
		}
	}
	for _, o := range inc.old.Orphans {
		add(o.File, o.Input)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	return out
}

// removeEmptyDirs removes dir and its parents up to (not including) root
// while they are empty, after pruning emptied them.
func removeEmptyDirs(root, dir string) {
	for insideDir(root, dir) && filepath.Clean(dir) != filepath.Clean(root) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// orphanNote is the summary line's mention of outputs left over and kept.
func (st finishStats) orphanNote() string {
	if st.orphans == 0 {
		return ""
	}
	return fmt.Sprintf(", %d left over (--prune deletes them)", st.orphans)
}
