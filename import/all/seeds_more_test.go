package all

import (
	"github.com/animbake/bake/import/bfres/bfreswrite"
	"github.com/animbake/bake/import/bntx/bntxwrite"
	"github.com/animbake/bake/import/ccs/ccswrite/demogen/ccsdemo"
	"github.com/animbake/bake/import/sarc/sarcwrite"
	"github.com/animbake/bake/import/virtools/vtwrite"
)

// init adds the BFRES, BNTX, CCS, SARC and Virtools writers' output to the hostile
// seeds: each format's demo inputs (what testdata/demo holds) and the
// Virtools importer tests' sample scene.
func init() {
	extraSeeds = func() []seed {
		var s []seed
		for _, f := range bfreswrite.Demo() {
			s = append(s, seed{"bfres/" + f.Name, f.Data})
		}
		s = append(s, seed{"bfres/Demo_Switch.bfres", bfreswrite.DemoSwitch().Bytes()})
		for _, f := range bntxwrite.Demo() {
			s = append(s, seed{"bntx/" + f.Name, f.Data})
		}
		for _, f := range ccsdemo.Files() {
			s = append(s, seed{"ccs/" + f.Name, f.Data})
		}
		for _, f := range vtwrite.Demo() {
			s = append(s, seed{"virtools/" + f.Name, f.Data})
		}
		s = append(s, seed{"virtools/sample-scene.nmo", vtwrite.SampleScene().Bytes()})
		for _, f := range sarcwrite.Demo() {
			s = append(s, seed{"sarc/" + f.Name, f.Data})
		}
		return s
	}
}
