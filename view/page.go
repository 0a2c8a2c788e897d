package view

import (
	"compress/gzip"
	"embed"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// page holds the page (page/) and the vendored JavaScript (vendor/:
// gzipped as npm ships it, with the licences; vendor/VERSIONS lists the
// packages, versions and file hashes; tools/view/vendor.sh rewrites it).
//
//go:embed page vendor
var page embed.FS

var pageTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".md":   "text/plain; charset=utf-8",
	"":      "text/plain; charset=utf-8",
}

// servePage serves the embedded page and scripts: / is page/index.html,
// /app.js page/app.js, /vendor/X the vendored file X (stored as X.gz,
// sent gzipped when the browser accepts it).
func servePage(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if p == "/" {
		p = "/index.html"
	}
	if strings.Contains(p, "..") || strings.Contains(p, "//") {
		httpError(w, http.StatusForbidden, "refused")
		return
	}
	name := "page" + p
	gz := false
	if strings.HasPrefix(p, "/vendor/") {
		name = p[1:]
		if _, err := fs.Stat(page, name+".gz"); err == nil {
			name, gz = name+".gz", true
		}
	}
	f, err := page.Open(name)
	if err != nil {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.IsDir() {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	typ, ok := pageTypes[path.Ext(p)]
	if !ok {
		typ = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", typ)
	h.Set("Cache-Control", "no-cache")
	var body io.Reader = f
	if gz {
		h.Add("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
		} else {
			zr, err := gzip.NewReader(f)
			if err != nil {
				httpError(w, http.StatusInternalServerError, err.Error())
				return
			}
			body = zr
		}
	}
	if r.Method == http.MethodHead {
		return
	}
	io.Copy(w, body)
}
