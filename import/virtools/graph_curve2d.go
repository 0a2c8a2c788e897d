package virtools

import (
	"github.com/animbake/bake/model"
)

// Identifiers of the CK2dCurve save (virtools-behaviours.md §6.1): the
// wrapper sub-chunk W holds identifier 14 with the curve sub-chunk C,
// whose identifier 0x100 holds the points.
const (
	ident2dCurveWrapper = 14
	ident2dCurveData    = 0x100
)

// CK2dCurvePoint flags.
const (
	curve2dUserTangents = 0x1
	curve2dLinear       = 0x2
	curve2dDataFollows  = 0x10000000
	curve2dPointDwords  = 12 // flags, x, y, t, c, b, 2 unused, in, out
)

// decode2dCurve reads a 2D curve from the wrapper sub-chunk of a
// parameter's 0x40 section. Points without the "data follows" flag carry
// nothing else and are dropped, as the engine does.
func decode2dCurve(w *Chunk, refs refResolver) (*model.Virtools2dCurve, error) {
	ws, err := w.section(ident2dCurveWrapper, refs)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		return nil, chunkError(w, "2D curve wrapper has no section %d", ident2dCurveWrapper)
	}
	c, err := ws.SubChunk("2D curve")
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, chunkError(w, "2D curve wrapper holds a null curve")
	}
	if err := sectionDone(ws, "2D curve wrapper"); err != nil {
		return nil, err
	}
	if c.DataVersion < 1 {
		return nil, chunkError(c, "2D curve data version %d uses the legacy layout, not supported", c.DataVersion)
	}
	s, err := c.section(ident2dCurveData, refs)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, chunkError(c, "2D curve has no 0x100 section")
	}
	n, err := s.U32("2D curve point count")
	if err != nil {
		return nil, err
	}
	// n object ids (all 0), the fitting, then at least one flags dword per point.
	if err := s.need(int(min(uint64(n), 1<<30))*2+1, "2D curve object array, fitting and points"); err != nil {
		return nil, err
	}
	_ = s.Skip(int(n), "2D curve object array")
	fit, _ := s.F32("2D curve fitting")
	curve := &model.Virtools2dCurve{Fitting: float64(fit)}
	for range n {
		flags, err := s.U32("2D curve point flags")
		if err != nil {
			return nil, err
		}
		if flags&curve2dDataFollows == 0 {
			continue
		}
		if err := s.need(curve2dPointDwords-1, "2D curve point"); err != nil {
			return nil, err
		}
		var v [11]float32
		for i := range v {
			v[i], _ = s.F32("2D curve point")
		}
		if err := s.finite("2D curve point", v[:]...); err != nil {
			return nil, err
		}
		curve.Points = append(curve.Points, model.Virtools2dPoint{
			X: float64(v[0]), Y: float64(v[1]),
			UserTangents: flags&curve2dUserTangents != 0, Linear: flags&curve2dLinear != 0,
			Tension: float64(v[2]), Continuity: float64(v[3]), Bias: float64(v[4]),
			In:  [2]float64{float64(v[7]), float64(v[8])},
			Out: [2]float64{float64(v[9]), float64(v[10])},
		})
	}
	return curve, sectionDone(s, "2D curve")
}
