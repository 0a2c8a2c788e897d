// Package view is bake view's web server: a page that lists the outputs
// of conversion runs (from their manifests), shows a chosen glTF with
// three.js, plays its clips, and draws beside it the pose the engine gives
// at the displayed time (the source file evaluated with the importer's
// own rules), with the error between the two (docs/view.md).
//
// The page and the JavaScript it loads (three.js and a KHR_animation_pointer
// plugin, vendored from npm at exact versions) are embedded: nothing is
// fetched from the network. The server is read-only: it serves files
// under the folders it was given and no others, evaluates only the source
// files their manifests name, and bounds every request in size and time.
package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// Importer decodes the source file at path the way the conversion run
// whose manifest options are given did, and returns the bake options the
// run used (rate, axes, timebase, loop suffix). Import warnings go to warn.
type Importer func(path string, options map[string]string, warn func(string)) ([]*model.File, sample.Options, error)

// Config says what a Server shows.
type Config struct {
	// Paths are the folders whose manifests' outputs are shown; only files
	// under them are served.
	Paths []string
	// Sources is the folder relative input paths of the manifests are read
	// from (where bake ran); "" is the working directory.
	Sources string
	// Import reads a source file for the engine side.
	Import Importer
	// Version is this bake's version as manifests record it: an output
	// another bake wrote gets a warning (its keys may not be this bake's,
	// so bake stats may measure other keys than the file's).
	Version string
}

// Server serves the page, the outputs and the engine's side.
type Server struct {
	cfg     Config
	roots   []*os.Root
	outputs []*Output
	byID    map[string]*Output
	cache   *cache
	// load serialises the loading of sources (decoding and setting up a
	// comparison): one at a time, so a burst of requests cannot exhaust
	// memory or the CPUs. last is the source read last (under load).
	load sync.Mutex
	last *decoded
}

// New reads the manifests under cfg.Paths.
func New(cfg Config) (*Server, error) {
	if len(cfg.Paths) == 0 {
		return nil, errors.New("no output folder given")
	}
	if cfg.Sources == "" {
		cfg.Sources = "."
	}
	s := &Server{cfg: cfg, byID: map[string]*Output{}, cache: newCache(8)}
	for _, p := range cfg.Paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s: not a folder (give the output folder of a conversion run)", p)
		}
		r, err := os.OpenRoot(p)
		if err != nil {
			return nil, err
		}
		s.roots = append(s.roots, r)
	}
	outs, err := findOutputs(cfg.Paths, cfg.Sources, cfg.Version)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.outputs = outs
	for _, o := range outs {
		s.byID[o.ID] = o
	}
	return s, nil
}

// Outputs returns the glTF outputs the page lists.
func (s *Server) Outputs() []*Output { return s.outputs }

// Close releases the folders.
func (s *Server) Close() {
	for _, r := range s.roots {
		r.Close()
	}
}

// Limits of a request.
const (
	maxURL         = 4096
	maxHeader      = 16 << 10
	computeTimeout = 2 * time.Minute
)

// Handler returns the server's HTTP handler: the page and its scripts,
// /files/ (outputs under the PATHs) and /api/ (listing, evaluation).
func (s *Server) Handler() http.Handler {
	api := http.TimeoutHandler(http.HandlerFunc(s.serveAPI), computeTimeout, `{"error":"timed out"}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// The page may talk to this server only (the importmap is inline).
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "+
			"img-src 'self' blob: data:; connect-src 'self' blob: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
		switch {
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			httpError(w, http.StatusMethodNotAllowed, "read-only: GET and HEAD only")
		case len(r.RequestURI) > maxURL:
			httpError(w, http.StatusRequestURITooLong, "request too long")
		case !loopbackHost(r):
			httpError(w, http.StatusForbidden, "unexpected Host header")
		case strings.HasPrefix(r.URL.Path, "/files/"):
			s.serveFile(w, r)
		case strings.HasPrefix(r.URL.Path, "/api/"):
			api.ServeHTTP(w, r)
		default:
			servePage(w, r)
		}
	})
}

// loopbackHost accepts requests whose Host names the server by an IP
// address or as localhost: the page's own origin. A name that resolves
// to the server through someone's DNS (rebinding) is refused.
func loopbackHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	return host == "localhost" || net.ParseIP(host) != nil
}

// Serve serves on ln until ctx ends, with every request bounded in time
// and header size.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: computeTimeout + 30*time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: maxHeader}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
		return nil
	}
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintln(w, msg)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// serveFile serves /files/N/REL: file REL under the N-th folder. The
// path must be plain: no encoded dots, slashes, backslashes or NULs, no
// empty, "." or ".." segment; os.Root then refuses any path (or symbolic
// link) that leads outside the folder. Only regular files are served.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	root, rel, err := s.filePath(r)
	if err != nil {
		httpError(w, http.StatusForbidden, err.Error())
		return
	}
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			httpError(w, http.StatusNotFound, "not found")
		} else {
			httpError(w, http.StatusForbidden, "refused")
		}
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		httpError(w, http.StatusForbidden, "not a file")
		return
	}
	w.Header().Set("Content-Type", contentType(rel))
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// filePath checks a /files/ request's path and returns its folder and the
// path below it.
func (s *Server) filePath(r *http.Request) (*os.Root, string, error) {
	raw := strings.ToLower(r.URL.EscapedPath())
	for _, bad := range []string{"%2e", "%2f", "%5c", "%00"} {
		if strings.Contains(raw, bad) {
			return nil, "", errors.New("refused: encoded dots, slashes and backslashes")
		}
	}
	p := strings.TrimPrefix(r.URL.Path, "/files/")
	idx, rel, ok := strings.Cut(p, "/")
	if !ok || rel == "" {
		return nil, "", errors.New("refused: no file named")
	}
	if strings.ContainsAny(rel, "\\\x00:") {
		return nil, "", errors.New("refused: backslash, NUL or drive letter")
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return nil, "", errors.New("refused: absolute path or . or .. segment")
		}
	}
	n := -1
	for i := range s.roots {
		if idx == fmt.Sprint(i) {
			n = i
		}
	}
	if n < 0 {
		return nil, "", errors.New("refused: no such folder")
	}
	return s.roots[n], rel, nil
}

func contentType(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".glb":
		return "model/gltf-binary"
	case ".gltf":
		return "model/gltf+json"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".json":
		return "application/json"
	}
	return "application/octet-stream"
}
