package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// sanitizePath turns an archive member's output name, whose folders are
// separated by "/" (model.File.Name), into a safe relative path: each
// element sanitized, so none can climb out of the output folder.
func sanitizePath(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = sanitize(p)
	}
	return filepath.Join(parts...)
}

// sanitize turns a name found inside a file into one safe path element:
// no separators, no "..", no NUL or control characters, no trailing dots or
// spaces, and no reserved Windows device names.
func sanitize(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, r < 0x20, r == 0x7f, unicode.IsControl(r):
			b.WriteByte('_')
		case strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	s := strings.Trim(b.String(), " .")
	if s == "" {
		s = "_"
	}
	if len(s) > 150 {
		cut := 150
		for !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	stem := strings.ToUpper(strings.SplitN(s, ".", 2)[0])
	switch stem {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		s = "_" + s
	}
	return s
}

// temps tracks temporary files being written, so an interrupt can remove them.
var temps = struct {
	sync.Mutex
	files map[string]bool
}{files: map[string]bool{}}

// writeOutputs writes every output under dir, each to a temporary file
// first and then renamed into place. If any write fails, the outputs of
// this input written so far are removed again.
func writeOutputs(dir string, outs []output) ([]string, error) {
	var done []string
	for _, o := range outs {
		path := filepath.Join(dir, o.rel)
		if !insideDir(dir, path) {
			removeAll(done)
			return nil, fmt.Errorf("output name %q leaves the output folder", o.rel)
		}
		if err := writeAtomic(path, o.data); err != nil {
			removeAll(done)
			return nil, err
		}
		done = append(done, path)
	}
	return done, nil
}

func insideDir(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func removeAll(paths []string) {
	for _, p := range paths {
		os.Remove(p)
	}
}

// writeAtomic writes data to path through a temporary file and a rename,
// so readers never see a partial file.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Create and register under the lock, so an interrupt either sees the
	// temporary file or stops us before it exists.
	temps.Lock()
	f, err := os.CreateTemp(filepath.Dir(path), ".bake-*.tmp")
	if err != nil {
		temps.Unlock()
		return err
	}
	tmp := f.Name()
	temps.files[tmp] = true
	temps.Unlock()
	defer func() {
		temps.Lock()
		delete(temps.files, tmp)
		temps.Unlock()
	}()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// cleanupOnInterrupt removes the temporary files in flight when SIGINT or
// SIGTERM arrives, then exits with 130. The returned function stops it.
func cleanupOnInterrupt(stderr io.Writer) func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	stop := make(chan struct{})
	go func() {
		select {
		case <-ch:
			temps.Lock()
			for p := range temps.files {
				os.Remove(p)
			}
			fmt.Fprintln(stderr, "\nbake: interrupted; no partial files left")
			os.Exit(130) // temps stays locked: no new file can be renamed into place
		case <-stop:
		}
	}()
	return func() { signal.Stop(ch); close(stop) }
}

// progress draws a one-line bar on stderr when it is a terminal.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	n     int
	on    bool
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	p := &progress{w: w, total: total}
	if f, ok := w.(*os.File); ok && !quiet && total > 1 {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if !p.on {
		return
	}
	const width = 30
	fill := p.n * width / max(p.total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d files", strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.n, p.total)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
