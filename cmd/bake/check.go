package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/manifest"
)

const checkUsage = `Usage: bake check [flags] PATH... -o OUT

Exits 0 when every output under OUT is what the inputs PATH... and the
flags would produce, by OUT's manifest: each input is hashed again and
compared with the manifest, and each output is hashed and compared with
the manifest's record. Otherwise it exits 1 and prints one line per
stale, missing, extra or failed file. Give the same flags as the bake run
(--fps, --format, ...): options that differ make every output stale.

Flags:
`

// runCheck is the up-to-date gate for committed outputs: it converts
// nothing and writes nothing.
func runCheck(args []string, stdout, stderr io.Writer) error {
	var cfg convertConfig
	flags := convertFlags(&cfg)
	flags.StringVar(&cfg.inc.manifest, "manifest", "", "the manifest to check against (default <out>/"+manifest.DefaultName+")")
	if err := parseFlags(flags, &cfg.common, args, checkUsage, stdout); err != nil {
		return err
	}
	cfg.inc.options = outputOptions(flags)
	if _, err := cfg.check(); err != nil {
		return err
	}
	if flags.NArg() == 0 {
		return usagef("no input paths given")
	}
	jobs, err := collect(flags.Args())
	if err != nil {
		return err
	}
	c := &checker{cfg: &cfg, files: &fileSums{m: map[string]*fileSumOnce{}}}
	path := cfg.inc.manifestPath(cfg.out)
	m, err := manifest.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stdout, "stale %s: %v\n", path, err)
		if !cfg.quiet {
			fmt.Fprintf(stderr, "bake check: no usable manifest: everything under %s is unproven\n", cfg.out)
		}
		return errSomeFailed
	}
	c.run(m, jobs)
	slices.Sort(c.problems)
	for _, p := range c.problems {
		fmt.Fprintln(stdout, p)
	}
	if len(c.problems) > 0 {
		if !cfg.quiet {
			fmt.Fprintf(stderr, "bake check: %d outputs up to date, %d problems: %s\n", c.good, len(c.problems), c.counts())
		}
		return errSomeFailed
	}
	if !cfg.quiet {
		fmt.Fprintf(stderr, "bake check: %d outputs up to date\n", c.good)
	}
	return nil
}

// checker compares inputs and outputs on disk with a manifest.
type checker struct {
	cfg      *convertConfig
	files    *fileSums
	problems []string
	kinds    map[string]int
	good     int
}

func (c *checker) report(kind, file, why string) {
	c.problems = append(c.problems, fmt.Sprintf("%s %s: %s", kind, file, why))
	if c.kinds == nil {
		c.kinds = map[string]int{}
	}
	c.kinds[kind]++
}

func (c *checker) counts() string {
	var parts []string
	for _, k := range []string{"stale", "missing", "extra", "failed"} {
		if n := c.kinds[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return strings.Join(parts, ", ")
}

func (c *checker) out(rel string) string {
	return filepath.Join(c.cfg.out, filepath.FromSlash(rel))
}

func (c *checker) run(m *manifest.Manifest, jobs []job) {
	var global string
	if v := bakeVersion(); m.Bake != v {
		global = fmt.Sprintf("written by bake %s, this is %s", m.Bake, v)
	} else if opts := manifest.NewOptions(c.cfg.inc.options); opts.SHA256 != m.Options.SHA256 {
		global = "options differ from the manifest's: " + strings.Join(m.Options.Changed(opts), ", ")
	}
	var mine []job
	for _, j := range jobs {
		if m.Shard.Holds(format.GroupKey(j.path)) {
			mine = append(mine, j)
		}
	}
	// Hash every input and every file an input used, in parallel.
	byPath := map[string]*manifest.Input{}
	for i := range m.Inputs {
		byPath[m.Inputs[i].Path] = &m.Inputs[i]
	}
	var g errgroup.Group
	g.SetLimit(c.cfg.jobs)
	for _, j := range mine {
		g.Go(func() error {
			c.files.sum(j.path)
			if e := byPath[filepath.ToSlash(j.path)]; e != nil {
				for _, u := range e.Uses {
					c.files.sum(filepath.FromSlash(u.Path))
				}
			}
			return nil
		})
	}
	g.Wait()

	listed := map[string]bool{}
	for _, j := range mine {
		key := filepath.ToSlash(j.path)
		e := byPath[key]
		if e == nil {
			if recognised(j.path) {
				c.report("missing", c.out(filepath.ToSlash(j.base))+".*", "new input "+key+" has no outputs")
			}
			continue
		}
		listed[key] = true
		c.checkInput(j, e, global)
	}
	for _, e := range m.Inputs {
		if listed[e.Path] || !m.Shard.Holds(format.GroupKey(filepath.FromSlash(e.Path))) {
			continue
		}
		found := false
		for _, o := range e.Outputs {
			if _, err := os.Lstat(c.out(o.Path)); err == nil {
				found = true
				c.report("extra", c.out(o.Path), "its input "+e.Path+" is gone")
			}
		}
		if !found {
			c.report("stale", c.manifestPath(), "it lists "+e.Path+", which is gone")
		}
	}
	for _, o := range m.Orphans {
		if _, err := os.Lstat(c.out(o.Path)); err == nil {
			c.report("extra", c.out(o.Path), "left over from "+o.Input)
		}
	}
	if m.Shard == nil {
		c.findExtras(m)
	}
}

func (c *checker) manifestPath() string { return c.cfg.inc.manifestPath(c.cfg.out) }

// checkInput reports the outputs of one recorded input that are not what
// its input, the files it used and the options would give now.
func (c *checker) checkInput(j job, e *manifest.Input, global string) {
	key := filepath.ToSlash(j.path)
	if e.Error != "" {
		c.report("failed", key, e.Error)
	}
	why := global
	s := c.files.sum(j.path)
	switch {
	case why != "":
	case s.err != nil:
		why = "input " + key + " cannot be read: " + s.err.Error()
	case s.size != e.Size || s.sha256 != e.SHA256:
		why = "input " + key + " changed"
	case e.Base != filepath.ToSlash(j.base):
		why = "its outputs are now named " + filepath.ToSlash(j.base) + ".*"
	default:
		for _, u := range e.Uses {
			if !c.files.sum(filepath.FromSlash(u.Path)).matches(u) {
				why = key + " uses " + u.Path + ", which changed"
				if u.Absent {
					why = key + " would now use " + u.Path
				}
				break
			}
		}
	}
	for _, o := range e.Outputs {
		got := hashFile(c.out(o.Path))
		switch {
		case got.absent:
			c.report("missing", c.out(o.Path), "output of "+key)
		case got.err != nil:
			c.report("stale", c.out(o.Path), got.err.Error())
		case got.size != o.Size || got.sha256 != o.SHA256:
			c.report("stale", c.out(o.Path), "its bytes differ from the manifest's")
		case why != "":
			c.report("stale", c.out(o.Path), why)
		default:
			c.good++
		}
	}
	if len(e.Outputs) == 0 && why != "" && e.Error == "" {
		c.report("stale", key, why)
	}
}

// findExtras reports every file under the output folder that no manifest
// entry accounts for (besides the manifest and the hash cache).
func (c *checker) findExtras(m *manifest.Manifest) {
	known := map[string]bool{manifest.CacheName: true}
	if rel, err := filepath.Rel(c.cfg.out, c.manifestPath()); err == nil {
		known[filepath.ToSlash(rel)] = true
	}
	for _, e := range m.Inputs {
		for _, o := range e.Outputs {
			known[o.Path] = true
		}
	}
	for _, o := range m.Orphans {
		known[o.Path] = true
	}
	filepath.WalkDir(c.cfg.out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(c.cfg.out, p)
		if err == nil && !known[filepath.ToSlash(rel)] {
			c.report("extra", p, "not in the manifest")
		}
		return nil
	})
}

// recognised reports whether an importer claims the file.
func recognised(path string) bool {
	in, closer, err := format.OpenFile(path)
	if err != nil {
		return false
	}
	defer closer.Close()
	_, err = format.Identify(in.R, in.Size)
	return err == nil
}
