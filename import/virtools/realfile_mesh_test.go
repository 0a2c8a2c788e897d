package virtools

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/internal/modeltest"
	"github.com/animbake/bake/model"
)

// decodeSampleAssets converts a real file with its meshes, materials,
// textures, cameras and lights (no texture folder: the images are
// missing, which one warning reports).
func decodeSampleAssets(tb testing.TB, name string) (*model.File, []string) {
	tb.Helper()
	var warnings []string
	opts := &format.Options{Timing: TimingGraph, Warn: func(s string) { warnings = append(warnings, s) }}
	files, err := Decode(format.BytesInput(name, readSample(tb, name)), opts)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	if err := files[0].Validate(); err != nil {
		tb.Fatalf("%s: model does not validate: %v", name, err)
	}
	return files[0], warnings
}

// TestSampleAssets: every real file converts with its meshes, cameras and
// lights. The counts come from the decoded CKMesh objects: every mesh some
// 3D object shows, i.e. all of them but the menu level's I_Box_Mesh (12
// faces) and the 3.5 copy's empty "Point Mesh.Copy", and PE_Balloon's six
// collision meshes PE_Balloon_Col_01..06 (12+12+12+20+12+12 = 80 faces),
// which no object references: 27−1 meshes with 8813−12 triangles, 31−2
// with 9693−12, 29−6 with 3018−80. The menu level has one
// CKTargetCamera, PE_Balloon two CKTargetLights.
func TestSampleAssets(t *testing.T) {
	for _, c := range []struct {
		name                               string
		meshes, cameras, lights, triangles int
	}{
		{menuLevel21, 26, 1, 0, 8801},
		{menuLevel35, 29, 1, 0, 9681},
		{peBalloon21, 23, 0, 2, 2938},
		{peBalloon35, 23, 0, 2, 2938},
		{pBox21, 1, 0, 0, 12},
		{trafoSticky25, 2, 0, 0, 338},
	} {
		f, _ := decodeSampleAssets(t, c.name)
		tri := 0
		for _, m := range f.Meshes {
			for _, p := range m.Primitives {
				tri += len(p.Indices) / 3
			}
		}
		if len(f.Meshes) != c.meshes || len(f.Cameras) != c.cameras || len(f.Lights) != c.lights || tri != c.triangles {
			t.Errorf("%s: %d meshes (%d triangles), %d cameras, %d lights; want %d (%d), %d, %d", c.name,
				len(f.Meshes), tri, len(f.Cameras), len(f.Lights), c.meshes, c.triangles, c.cameras, c.lights)
		}
	}
}

// TestMenuLevelGeometryAcrossVersions: the 2.1 file and its 3.5 re-save
// hold the same geometry for every mesh they share — same primitives,
// vertex and triangle counts, positions within 1e-5. The re-save is not
// the same scene: it drops I_Box_01/02 and adds five I_Zone meshes (the
// deobfuscated BallanceModding copy), which the test names.
func TestMenuLevelGeometryAcrossVersions(t *testing.T) {
	a, _ := decodeSampleAssets(t, menuLevel21)
	b, _ := decodeSampleAssets(t, menuLevel35)
	byName := func(f *model.File) map[string]*model.Mesh {
		out := map[string]*model.Mesh{}
		for i := range f.Meshes {
			out[f.Meshes[i].Name] = &f.Meshes[i]
		}
		return out
	}
	ma, mb := byName(a), byName(b)
	var onlyA, onlyB []string
	shared := 0
	for name, m := range ma {
		n := mb[name]
		if n == nil {
			onlyA = append(onlyA, name)
			continue
		}
		shared++
		if len(m.Primitives) != len(n.Primitives) {
			t.Errorf("%s: %d and %d primitives", name, len(m.Primitives), len(n.Primitives))
			continue
		}
		for i, p := range m.Primitives {
			q := n.Primitives[i]
			if len(p.Positions) != len(q.Positions) || len(p.Indices) != len(q.Indices) {
				t.Errorf("%s primitive %d: %d/%d vertices, %d/%d triangles", name, i, len(p.Positions)/3, len(q.Positions)/3, len(p.Indices)/3, len(q.Indices)/3)
				continue
			}
			for k := range p.Positions {
				if math.Abs(float64(p.Positions[k]-q.Positions[k])) > 1e-5 {
					t.Errorf("%s primitive %d: position component %d %v vs %v", name, i, k, p.Positions[k], q.Positions[k])
					break
				}
			}
		}
	}
	for name := range mb {
		if ma[name] == nil {
			onlyB = append(onlyB, name)
		}
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	if shared != 24 || strings.Join(onlyA, ",") != "I_Box_01_Mesh,I_Box_02_Mesh" ||
		strings.Join(onlyB, ",") != "I_Zone_Laterne_Glow_Mesh,I_Zone_SuDu_Aussen_Mesh,I_Zone_SuDu_Glow_Mesh,I_Zone_SuDu_Innen_Mesh,I_Zone_SuDu_Pick_Mesh" {
		t.Errorf("%d shared meshes; only in 2.1 %v; only in 3.5 %v", shared, onlyA, onlyB)
	}
}

// TestAnimatedObjectsCarryMeshes: what the animations move is visible —
// the UFO's eight arms in PE_Balloon and the menu level's stone ball.
func TestAnimatedObjectsCarryMeshes(t *testing.T) {
	for _, name := range []string{peBalloon21, peBalloon35} {
		f, _ := decodeSampleAssets(t, name)
		arms := 0
		for _, n := range f.Nodes {
			if strings.HasPrefix(n.Name, "PE_UFO_Arm_") {
				if n.Mesh == "" {
					t.Errorf("%s: %s has no mesh", name, n.Name)
				}
				arms++
			}
		}
		if arms != 8 {
			t.Errorf("%s: %d arms", name, arms)
		}
	}
	for _, name := range []string{menuLevel21, menuLevel35} {
		f, _ := decodeSampleAssets(t, name)
		if n := modeltest.Node(t, f, "I_Ball_Stone"); n.Mesh != "I_Ball_Stone_Mesh" {
			t.Errorf("%s: I_Ball_Stone shows %q", name, n.Mesh)
		}
		if n := modeltest.Node(t, f, "Cam_MenuLevel"); n.Camera == "" {
			t.Errorf("%s: Cam_MenuLevel has no camera", name)
		}
	}
}

// TestSampleFacesAlongNormals is the evidence for the winding rule
// (TestFrontFacesAfterAxes): in Ballance's own meshes with saved normals,
// (b − a) × (c − a) of a face points the way of its vertices' normals, in
// Virtools' axes. The share is reported; shading normals of thin or
// folded geometry may disagree for a few faces.
func TestSampleFacesAlongNormals(t *testing.T) {
	for _, name := range allSamples {
		s, _ := decodeSampleScene(t, name)
		if err := s.DecodeAssets(func(string, ...any) {}); err != nil {
			t.Fatal(err)
		}
		agree, total := 0, 0
		for _, i := range sortedKeys(s.Assets.Meshes) {
			m := s.Assets.Meshes[i]
			if m.Normals == nil || m.FaceCount() == 0 {
				continue
			}
			idx := make([]uint32, len(m.Faces))
			for k, v := range m.Faces {
				idx[k] = uint32(v)
			}
			a, n := facesAlongNormals(model.Primitive{Positions: m.Positions, Normals: m.Normals, Indices: idx})
			agree += a
			total += n
		}
		share := float64(agree) / float64(max(total, 1))
		t.Log(fmt.Sprintf("%s: %d of %d faces (%.2f%%) along their normals", name, agree, total, 100*share))
		if total > 0 && share < 0.95 {
			t.Errorf("%s: only %d of %d faces along their normals", name, agree, total)
		}
	}
}

// TestSampleCameraAndLights: Cam_MenuLevel saves a horizontal fov of
// 0x3f73349c = 0.9500215 rad at 4:3 with planes 20 and 550, so its yfov is
// 2·atan(tan(0.4750108)·3/4) = 0.7362615; PE_Balloon's two target lights are
// point lights of colour 0xff5c8fda with only a quadratic attenuation, 1.0
// (PE_UFO_Light2) and 1.5 (PE_UFO_Light1), range 50, power 1: intensity
// 1/1 and 1/1.5.
func TestSampleCameraAndLights(t *testing.T) {
	for _, name := range []string{menuLevel21, menuLevel35} {
		f, _ := decodeSampleAssets(t, name)
		c := f.Cameras[0]
		if math.Abs(c.Yfov-0.736261536727562) > 1e-9 || c.Znear != 20 || c.Zfar != 550 || math.Abs(c.Aspect-4.0/3) > 1e-12 || c.Extras["virtoolsTarget"] == nil {
			t.Errorf("%s: camera %+v", name, c)
		}
	}
	for _, name := range []string{peBalloon21, peBalloon35} {
		f, _ := decodeSampleAssets(t, name)
		want := map[string]float64{"PE_UFO_Light2": 1, "PE_UFO_Light1": 1 / 1.5}
		for _, l := range f.Lights {
			if l.Type != model.LightPoint || math.Abs(l.Intensity-want[l.Name]) > 1e-6 || l.Range != 50 ||
				math.Abs(l.Color[0]-srgbToLinear(0x5c/255.0)) > 1e-12 || math.Abs(l.Color[2]-srgbToLinear(0xda/255.0)) > 1e-12 {
				t.Errorf("%s: light %+v", name, l)
			}
		}
	}
}
