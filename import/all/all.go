// Package all registers every importer bake has; import it for its side
// effect, as the command line does.
package all

import (
	_ "github.com/animbake/bake/import/bfres"    // Wii U BFRES (.bfres, Yaz0 .sbfres)
	_ "github.com/animbake/bake/import/bntx"     // Switch BNTX textures (.bntx)
	_ "github.com/animbake/bake/import/ccs"      // CyberConnect2 CCS (.ccs, .cmp, DATA.BIN)
	_ "github.com/animbake/bake/import/oni"      // Oni OBAN (.dat, .oni)
	_ "github.com/animbake/bake/import/sarc"     // Nintendo SARC archives (.sarc, .pack, Yaz0 .szs)
	_ "github.com/animbake/bake/import/virtools" // Virtools 2.x (.nmo, .cmo)
)
