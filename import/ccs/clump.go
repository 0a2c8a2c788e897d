package ccs

import (
	"github.com/animbake/bake/import/binread"
)

// Clump is a Clump chunk (0x0900): the objects that form one skeleton, in
// the order deformable models index them, and (after version 0x110) each
// one's bind pose. Layout after the id (imoqReader Clump; blender_ccs_importer
// ccsClump.py; S01.CCS: all 79 have size 2 + 10·n words):
//
//	u32 n, n × u32 object id,
//	version > 0x110: n × (f32 position[3], f32 rotation[3] in degrees,
//	f32 scale[3]).
//
// Generation 1 clumps carry no pose: the nodes rest at the identity.
type Clump struct {
	Off   int64
	ID    uint32
	Nodes []uint32
	// Pose holds the bind pose per node (nil in generation 1).
	Pose []BonePose
}

// BonePose is a clump node's bind pose: local T·R·S with R = Rx·Ry·Rz
// from Euler degrees, the composition ccAnm uses (ccs-container.md §6.3).
type BonePose struct {
	Position [3]float32
	Rotation [3]float32
	Scale    [3]float32
}

func readClump(c *RawChunk, version uint32) (*Clump, error) {
	r := c.reader()
	cl := &Clump{Off: c.Off, ID: c.ID}
	n32, err := r.U32("clump node count")
	if err != nil {
		return nil, err
	}
	per := 4
	if version > VersionGen1 {
		per += 36
	}
	n, err := r.Count(uint64(n32), per, "clump nodes")
	if err != nil {
		return nil, err
	}
	cl.Nodes = make([]uint32, n)
	for i := range cl.Nodes {
		cl.Nodes[i], _ = r.U32("clump node")
		if cl.Nodes[i] == 0 {
			return nil, binread.Errorf(r.Off()-4, "clump %d: node %d is the null object 0", c.ID, i)
		}
	}
	if version > VersionGen1 {
		cl.Pose = make([]BonePose, n)
		for i := range cl.Pose {
			p := &cl.Pose[i]
			for _, v := range []*[3]float32{&p.Position, &p.Rotation, &p.Scale} {
				for k := range 3 {
					v[k], _ = r.F32("clump bind pose")
				}
			}
		}
	}
	return cl, nil
}
