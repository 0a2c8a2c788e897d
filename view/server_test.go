package view

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/animbake/bake/manifest"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// glb wraps glTF JSON in a GLB container (glTF 2.0 §4.4: a 12-byte
// header, then the JSON chunk padded with spaces to 4 bytes).
func glb(js string) []byte {
	for len(js)%4 != 0 {
		js += " "
	}
	b := []byte("glTF")
	b = binary.LittleEndian.AppendUint32(b, 2)
	b = binary.LittleEndian.AppendUint32(b, uint32(12+8+len(js)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = binary.LittleEndian.AppendUint32(b, 0x4E4F534A)
	return append(b, js...)
}

// testJSON has two clips: Wave-loop (the table's rate, 24 frames,
// repeating) and Dead (30 output frames of a 60 frames/s source, once).
const testJSON = `{"asset":{"version":"2.0"},"animations":[{"name":"Wave-loop"},{"name":"Dead"}],
"scenes":[{"extras":{"bake":{"fps":30,"clips":{"Wave-loop":{"frameEnd":24,"loop":"repeat"},"Dead":{"frameEnd":30,"sourceFps":60,"sourceName":"dead"}}}}}]}`

// fixture is an output folder with a manifest naming one input and its
// GLB, a symbolic link inside it, links that lead out, and a secret file
// beside the folder.
type fixture struct {
	dir, out string
	imports  int
	srv      *Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir()}
	fx.out = filepath.Join(fx.dir, "out")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(fx.out, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(fx.dir, "secret"), []byte("TOPSECRET"), 0o644))
	must(os.WriteFile(filepath.Join(fx.dir, "src.oni"), []byte("src"), 0o644))
	data := glb(testJSON)
	must(os.WriteFile(filepath.Join(fx.out, "sub", "a.glb"), data, 0o644))
	must(os.Symlink("sub/a.glb", filepath.Join(fx.out, "inside.glb")))
	must(os.Symlink("../secret", filepath.Join(fx.out, "escape")))
	must(os.Symlink(fx.dir, filepath.Join(fx.out, "escape-dir")))
	must(os.Symlink(filepath.Join(fx.dir, "secret"), filepath.Join(fx.out, "sub", "abs-escape")))
	m := &manifest.Manifest{Bake: "test output/1", Options: manifest.NewOptions(map[string]string{"fps": "native"}),
		Inputs: []manifest.Input{{Path: "src.oni", Size: 3, SHA256: manifest.SumBytes([]byte("src")), Format: "oni", Base: "sub/a",
			Outputs: []manifest.File{{Path: "sub/a.glb", Size: int64(len(data)), SHA256: manifest.SumBytes(data)}}}}}
	enc, err := m.Encode()
	must(err)
	must(os.WriteFile(filepath.Join(fx.out, manifest.DefaultName), enc, 0o644))
	fx.srv, err = New(Config{Paths: []string{fx.out}, Sources: fx.dir,
		Import: func(path string, options map[string]string, warn func(string)) ([]*model.File, sample.Options, error) {
			fx.imports++
			return nil, sample.Options{}, errors.New("test importer reads nothing")
		}})
	must(err)
	t.Cleanup(fx.srv.Close)
	return fx
}

// get sends a request whose target goes to the handler exactly as written.
func (fx *fixture) get(target string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1:1234"
	w := httptest.NewRecorder()
	fx.srv.Handler().ServeHTTP(w, req)
	return w
}

func TestOutputsFromTheManifest(t *testing.T) {
	fx := newFixture(t)
	outs := fx.srv.Outputs()
	if len(outs) != 1 {
		t.Fatalf("%d outputs, want 1", len(outs))
	}
	o := outs[0]
	if o.ID != "0/sub/a.glb" || o.URL != "/files/0/sub/a.glb" || o.Source != "src.oni" || o.Format != "oni" || len(o.Warnings) != 0 {
		t.Errorf("output %+v", o)
	}
	// docs/clients.md: a clip's value is its entry's, else the table's,
	// else the default; length = frameEnd / the table's fps; source frames
	// = frameEnd × sourceFps / fps.
	want := []Clip{
		{Name: "Wave-loop", Duration: 24.0 / 30, FPS: 30, SourceFPS: 30, SourceFrames: 24, Loop: "repeat"},
		{Name: "Dead", Duration: 1, FPS: 30, SourceFPS: 60, SourceFrames: 60, Loop: "once", SourceName: "dead"},
	}
	if fmt.Sprint(o.Clips) != fmt.Sprint(want) {
		t.Errorf("clips %+v\nwant %+v", o.Clips, want)
	}
}

func TestOutputOfAnotherBakeWarned(t *testing.T) {
	fx := newFixture(t)
	for version, warned := range map[string]bool{"test output/1": false, "v9 output/9": true} {
		srv, err := New(Config{Paths: []string{fx.out}, Sources: fx.dir, Import: fx.srv.cfg.Import, Version: version})
		if err != nil {
			t.Fatal(err)
		}
		w := srv.Outputs()[0].Warnings
		if got := len(w) == 1 && strings.Contains(w[0], "written by bake test output/1"); got != warned || (!warned && len(w) != 0) {
			t.Errorf("bake %q: warnings %q", version, w)
		}
		srv.Close()
	}
}

func TestFilesServedUnderThePathOnly(t *testing.T) {
	fx := newFixture(t)
	for target, code := range map[string]int{
		"/files/0/sub/a.glb":   http.StatusOK,
		"/files/0/inside.glb":  http.StatusOK, // a link that stays inside
		"/files/0/sub/missing": http.StatusNotFound,
		"/files/0/sub":         http.StatusForbidden, // folders are not listed
	} {
		if w := fx.get(target); w.Code != code {
			t.Errorf("%s: %d, want %d", target, w.Code, code)
		}
	}
	for _, target := range []string{
		"/files/0/../secret",
		"/files/0/sub/../../secret",
		"/files/0/%2e%2e/secret",
		"/files/0/%2E%2E/secret",
		"/files/0/.%2e/secret",
		"/files/0/..%2fsecret",
		"/files/0/sub%2f..%2f..%2fsecret",
		"/files/0//etc/passwd",
		"/files/0/%2fetc%2fpasswd",
		"/files/0/..\\secret",
		"/files/0/sub%5c..%5c..%5csecret",
		"/files/0/./sub/a.glb",
		"/files/0/sub//a.glb",
		"/files/0/C:/secret",
		"/files/0/escape",
		"/files/0/escape-dir/secret",
		"/files/0/sub/abs-escape",
		"/files/1/secret",
		"/files/00/sub/a.glb",
		"/files/-1/secret",
		"/files/0/",
		"/files/",
		"/vendor/../../secret",
		"/vendor/%2e%2e/%2e%2e/secret",
	} {
		w := fx.get(target)
		if w.Code < 400 || strings.Contains(w.Body.String(), "TOPSECRET") {
			t.Errorf("%s: %d %q, want a refusal", target, w.Code, w.Body.String())
		}
	}
}

func TestEvaluationOnlyOfListedOutputs(t *testing.T) {
	fx := newFixture(t)
	for _, target := range []string{
		"/api/eval?output=0/escape&clip=Dead&frame=0",
		"/api/eval?output=0/../secret&clip=Dead&frame=0",
		"/api/eval?output=0/sub/a.glb&clip=NotAClip&frame=0",
		"/api/curve?output=0/inside.glb&clip=Dead&node=x",
	} {
		if w := fx.get(target); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, w.Code)
		}
	}
	if w := fx.get("/api/eval?output=0/sub/a.glb&clip=Dead&frame=NaN"); w.Code != http.StatusBadRequest {
		t.Errorf("frame NaN: %d, want 400", w.Code)
	}
	if fx.imports != 0 {
		t.Fatalf("%d sources read for outputs the manifest does not list", fx.imports)
	}
	// A listed output's clip reads its source (here, an importer that fails).
	if w := fx.get("/api/eval?output=0/sub/a.glb&clip=Dead&frame=0"); w.Code != http.StatusUnprocessableEntity || fx.imports != 1 {
		t.Errorf("listed clip: %d after %d imports, want 422 after 1", w.Code, fx.imports)
	}
}

func TestReadOnlyAndBounded(t *testing.T) {
	fx := newFixture(t)
	h := fx.srv.Handler()
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req := httptest.NewRequest(m, "/files/0/sub/a.glb", strings.NewReader("x"))
		req.Host = "127.0.0.1:1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d, want 405", m, w.Code)
		}
	}
	if w := fx.get("/api/outputs?x=" + strings.Repeat("a", maxURL)); w.Code != http.StatusRequestURITooLong {
		t.Errorf("long URL: %d, want 414", w.Code)
	}
	// DNS rebinding: a page of another site that resolves its name to
	// 127.0.0.1 sends its own Host.
	req := httptest.NewRequest(http.MethodGet, "/api/outputs", nil)
	req.Host = "attacker.example:8080"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", w.Code)
	}
}

// TestRealServerRefusesRawTraversal sends raw request lines to a server
// listening on 127.0.0.1 (no client cleans the path on the way).
func TestRealServerRefusesRawTraversal(t *testing.T) {
	fx := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- fx.srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	status := func(line string, extra string) (int, string) {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "%s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n", line, addr, extra)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, line := range []string{"GET /files/0/../secret", "GET /files/0/%2e%2e/secret", "GET /files/0/escape", "GET /files/0/..%5csecret"} {
		if code, body := status(line, ""); code < 400 || strings.Contains(body, "TOPSECRET") {
			t.Errorf("%s: %d", line, code)
		}
	}
	if code, _ := status("GET /files/0/sub/a.glb", ""); code != http.StatusOK {
		t.Errorf("the output itself: %d", code)
	}
	if code, _ := status("GET /", "X-Big: "+strings.Repeat("a", 2*maxHeader)+"\r\n"); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("big header: %d, want 431", code)
	}
	if code, _ := status("GET /vendor/three/build/three.module.js", ""); code != http.StatusOK {
		t.Errorf("vendored three.js: %d", code)
	}
}
