package fidelity

import (
	"math"

	"github.com/animbake/bake/model"
)

// Distances are the error distances of a hierarchy's nodes: how far from a
// node's origin its virtual vertices lie (the metric places them there
// along the node's x, y and z axes, in the node's own space). Without a
// mesh every node has the shell (3 cm, ACL's); where the output has a mesh,
// a node that moves vertices has the distance of the farthest of them
// (NodeDistances).
type Distances struct {
	// Of holds each node's distance.
	Of []float64
	// Mesh counts the nodes whose distance comes from mesh vertices.
	Mesh int
}

// Shells are the distances of n nodes without a mesh: shell each
// (DefaultShell when not positive).
func Shells(n int, shell float64) Distances {
	if !(shell > 0) {
		shell = DefaultShell
	}
	d := Distances{Of: make([]float64, n)}
	for i := range d.Of {
		d.Of[i] = shell
	}
	return d
}

// At is node i's distance.
func (d Distances) At(i int) float64 { return d.Of[i] }

// Source says where the distances come from, for reports.
func (d Distances) Source() string {
	if d.Mesh > 0 {
		return "mesh"
	}
	return "shell"
}

// NodeDistances returns the error distance of every node (nodes in the
// output axes, assets converted with them: sample.Baked's), from the
// vertices each moves:
//
//   - a joint of a skin that a mesh of the output is drawn with: the
//     largest |IBM_j · p| over the mesh's vertices p with a weight above 0
//     for joint j, i.e. the vertex's distance from the joint in the joint's
//     own space at the bind pose. A weight selects the vertices a joint
//     moves but does not shrink their distance: a skinned vertex is the
//     weighted average Σ w_j·W_j·IBM_j·p of where its joints put it, so it
//     is within the tolerance when each joint places it (at its full
//     distance) within the tolerance; distances shrunk by the weights would
//     let each of up to four joints add a tolerance.
//   - a node that draws a mesh without a skin: the largest |p| of its
//     vertices (in the node's space);
//   - any other node (no mesh in the output, a bone that moves no vertex):
//     shell.
//
// Morph target displacements are not counted (the samples' skinned meshes
// have none).
func NodeDistances(nodes []model.Node, assets *model.Assets, shell float64) Distances {
	d := Shells(len(nodes), shell)
	if assets == nil || len(assets.Meshes) == 0 {
		return d
	}
	meshes := make(map[string]*model.Mesh, len(assets.Meshes))
	for i := range assets.Meshes {
		meshes[assets.Meshes[i].Name] = &assets.Meshes[i]
	}
	skins := make(map[string]*model.Skin, len(assets.Skins))
	for i := range assets.Skins {
		skins[assets.Skins[i].Name] = &assets.Skins[i]
	}
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
	}
	far := make([]float64, len(nodes))
	moves := make([]bool, len(nodes))
	for ni, n := range nodes {
		m := meshes[n.Mesh]
		if m == nil {
			continue
		}
		sk := skins[n.Skin]
		if sk == nil {
			for pi := range m.Primitives {
				pos := m.Primitives[pi].Positions
				for v := 0; v+3 <= len(pos); v += 3 {
					p := [3]float64{float64(pos[v]), float64(pos[v+1]), float64(pos[v+2])}
					far[ni] = max(far[ni], norm3(p))
					moves[ni] = true
				}
			}
			continue
		}
		joint := make([]int, len(sk.Joints)) // skin joint → node, -1 when absent
		for j, name := range sk.Joints {
			joint[j] = -1
			if i, ok := index[name]; ok && j < len(sk.InverseBind) {
				joint[j] = i
			}
		}
		for pi := range m.Primitives {
			pr := &m.Primitives[pi]
			pos, js, ws := pr.Positions, pr.Joints, pr.Weights
			for v := 0; 3*v+3 <= len(pos) && 4*v+4 <= len(js) && 4*v+4 <= len(ws); v++ {
				p := [3]float64{float64(pos[3*v]), float64(pos[3*v+1]), float64(pos[3*v+2])}
				for k := range 4 {
					j := int(js[4*v+k])
					if !(ws[4*v+k] > 0) || j >= len(joint) || joint[j] < 0 {
						continue
					}
					q := transformPoint(&sk.InverseBind[j], p)
					far[joint[j]] = max(far[joint[j]], norm3(q))
					moves[joint[j]] = true
				}
			}
		}
	}
	for i, m := range moves {
		if m && far[i] > 0 && !math.IsInf(far[i], 0) {
			d.Of[i] = far[i]
			d.Mesh++
		}
	}
	return d
}

// transformPoint applies a column-major affine matrix to a point.
func transformPoint(m *[16]float64, p [3]float64) [3]float64 {
	var q [3]float64
	for r := range 3 {
		q[r] = m[r]*p[0] + m[4+r]*p[1] + m[8+r]*p[2] + m[12+r]
	}
	return q
}

func norm3(p [3]float64) float64 { return math.Sqrt(p[0]*p[0] + p[1]*p[1] + p[2]*p[2]) }
