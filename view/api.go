package view

import (
	"errors"
	"math"
	"net/http"
	"strconv"
)

// serveAPI answers the page's questions:
//
//	/api/outputs                           the outputs, their clips and warnings
//	/api/eval?output=ID&clip=NAME&frame=F  the engine's pose at source frame F and the error
//	/api/curve?output=ID&clip=NAME&node=N  node N's channels: engine curve and glTF keys
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch r.URL.Path {
	case "/api/outputs":
		writeJSON(w, struct {
			Roots   []string  `json:"roots"`
			Outputs []*Output `json:"outputs"`
		}{s.cfg.Paths, s.outputs})
	case "/api/eval":
		frame, err := strconv.ParseFloat(q.Get("frame"), 64)
		if err != nil || math.IsNaN(frame) || math.IsInf(frame, 0) {
			httpError(w, http.StatusBadRequest, "frame: a finite number of source frames")
			return
		}
		v, err := s.clip(q.Get("output"), q.Get("clip"))
		if err != nil {
			apiError(w, err)
			return
		}
		writeJSON(w, v.at(frame))
	case "/api/curve":
		v, err := s.clip(q.Get("output"), q.Get("clip"))
		if err != nil {
			apiError(w, err)
			return
		}
		chans, err := v.curves(q.Get("node"))
		if err != nil {
			apiError(w, err)
			return
		}
		writeJSON(w, struct {
			Node     string         `json:"node"`
			Channels []curveChannel `json:"channels"`
		}{q.Get("node"), chans})
	default:
		httpError(w, http.StatusNotFound, "not found")
	}
}

func apiError(w http.ResponseWriter, err error) {
	code := http.StatusUnprocessableEntity
	if errors.Is(err, errNotFound) {
		code = http.StatusNotFound
	}
	httpError(w, code, err.Error())
}
