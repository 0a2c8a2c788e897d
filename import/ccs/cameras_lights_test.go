package ccs

import (
	"math"
	"testing"

	w "github.com/animbake/bake/import/ccs/ccswrite"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// A camera whose controller keys the field of view 30° → 60° over 10
// frames, and an omni light with a constant colour (0xCC, 0x66, 0x33):
// the camera's fov channel plays in radians (π/6 → π/3, π/4 at frame 5),
// the light's colour in 0..1 RGB (0.8, 0.4, 0.2); the static values are
// the first keys.
func TestCameraAndLight(t *testing.T) {
	b := w.New("cam", 0x110)
	cam := b.Object("CAM_main", "cam.max")
	lgt := b.Object("LGT_omni", "cam.max")
	anm := b.Object("ANM_cam", "cam.max")
	b.Chunk(0x0500, cam)
	b.Chunk(0x0600, lgt, LightOmni)
	b.Anime(anm, 11, false, []w.Record{
		w.CamCtrl(cam, w.Const(0, -100, 0), w.Absent, w.Keyed(w.K(0, 30), w.K(10, 60))),
		w.LightCtrl(0x0609, lgt, w.Absent, w.Absent, w.ColorConst(0xCC, 0x66, 0x33, 0x80)),
	})
	f := mustDecode(t, b.Bytes())
	if len(f.Cameras) != 1 || len(f.Lights) != 1 {
		t.Fatalf("%d cameras, %d lights", len(f.Cameras), len(f.Lights))
	}
	if c := f.Cameras[0]; c.Name != "CAM_main" || c.Type != model.CameraPerspective || math.Abs(c.Yfov-math.Pi/6) > 1e-15 {
		t.Errorf("camera %+v", c)
	}
	if l := f.Lights[0]; l.Type != model.LightPoint || math.Abs(l.Color[0]-0.8) > 1e-15 || math.Abs(l.Color[1]-0.4) > 1e-15 || math.Abs(l.Color[2]-0.2) > 1e-15 {
		t.Errorf("light %+v", l)
	}
	a := modeltest.Animation(t, f, "ANM_cam")
	modeltest.Near(t, "fov at 5", modeltest.Eval(t, a, "CAM_main", "fov", 5), []float64{math.Pi / 4}, 1e-7)
	modeltest.Near(t, "colour", modeltest.Eval(t, a, "LGT_omni", PathColor, 3), []float64{0.8, 0.4, 0.2}, 1e-7)
	for _, n := range f.Nodes {
		if n.Name == "CAM_main" && n.Camera != "CAM_main" || n.Name == "LGT_omni" && n.Light != "LGT_omni" {
			t.Errorf("node %+v", n)
		}
	}
}
