package oni

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/animbake/bake/format"
	"github.com/animbake/bake/import/binread"
	"github.com/animbake/bake/import/oni/oniwrite"
	"github.com/animbake/bake/model"
	"github.com/animbake/bake/sample"
)

// decodeBytes decodes data, failing the test on error, and returns the
// file and the notices.
func decodeBytes(t testing.TB, path string, data []byte) (*model.File, []string) {
	t.Helper()
	var warns []string
	f, err := Decode(path, data, &format.Options{Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	if err := f.Validate(); err != nil {
		t.Fatalf("decode %s: invalid model: %v", path, err)
	}
	return f, warns
}

// levelWith writes a level file (level 3) holding the given instances.
func levelWith(ins ...oniwrite.Instance) []byte {
	return (&oniwrite.File{Kind: oniwrite.LevelFile, Level: 3, Instances: ins}).Bytes()
}

func nodeIndex(t *testing.T, f *model.File, name string) int {
	t.Helper()
	for i, n := range f.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %q", name)
	return -1
}

// mat4 is a column-major 4×4 matrix.
type mat4 [16]float64

func mul(a, b mat4) mat4 {
	var m mat4
	for c := range 4 {
		for r := range 4 {
			for k := range 4 {
				m[4*c+r] += a[4*k+r] * b[4*c+k]
			}
		}
	}
	return m
}

// trs composes T·R·S from a Hamilton quaternion (x, y, z, w).
func trs(tr [3]float64, q [4]float64, s [3]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	r := [9]float64{ // column-major 3×3
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w),
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w),
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y),
	}
	var m mat4
	for c := range 3 {
		for rr := range 3 {
			m[4*c+rr] = r[3*c+rr] * s[c]
		}
	}
	m[12], m[13], m[14], m[15] = tr[0], tr[1], tr[2], 1
	return m
}

// worldMatrix composes the world matrix of node at frame: the animation's
// translation and rotation channels (compiled with sample.Compile) override
// the rest TRS of the nodes they target; matrices and TRS multiply down the
// parent chain.
func worldMatrix(t *testing.T, f *model.File, a *model.Animation, node string, frame float64) mat4 {
	t.Helper()
	local := func(i int) mat4 {
		n := f.Nodes[i]
		if n.Matrix != nil {
			return mat4(*n.Matrix)
		}
		tr, q, s := n.Translation, n.Rotation, n.Scale
		for _, c := range a.Channels {
			if c.Node != n.Name {
				continue
			}
			e, err := sample.Compile(c.Curve)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, e.Width())
			e.Eval(frame, out)
			switch c.Path {
			case model.PathTranslation:
				copy(tr[:], out)
			case model.PathRotation:
				copy(q[:], out)
			case model.PathScale:
				copy(s[:], out)
			}
		}
		return trs(tr, q, s)
	}
	i := nodeIndex(t, f, node)
	m := local(i)
	for p := f.Nodes[i].Parent; p >= 0; p = f.Nodes[p].Parent {
		m = mul(local(p), m)
	}
	return m
}

// affine builds a column-major matrix from the images of x, y, z and the
// translation.
func affine(x, y, z, tr [3]float64) mat4 {
	return mat4{x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, tr[0], tr[1], tr[2], 1}
}

func matNear(t *testing.T, what string, got, want mat4, tol float64) {
	t.Helper()
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s:\n got %v\nwant %v", what, got, want)
			return
		}
	}
}

// wantFormatError checks that err is a *binread.FormatError at off whose
// message contains every fragment.
func wantFormatError(t *testing.T, what string, err error, off int64, fragments ...string) {
	t.Helper()
	var fe *binread.FormatError
	if !errors.As(err, &fe) {
		t.Errorf("%s: got %v (%T), want a *binread.FormatError", what, err, err)
		return
	}
	if fe.Off != off {
		t.Errorf("%s: error at offset 0x%x, want 0x%x (%v)", what, fe.Off, off, err)
	}
	for _, s := range fragments {
		if !strings.Contains(fe.Msg, s) {
			t.Errorf("%s: message %q does not mention %q", what, fe.Msg, s)
		}
	}
}
