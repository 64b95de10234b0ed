// Package all registers every variant refereed plays, their refusals worded by templates.
// Import it for its side effect; a new variant adds one line here and nothing elsewhere.
package all

import (
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/conditional"
	_ "github.com/refereed/refereed/variant/kriegspiel"
	_ "github.com/refereed/refereed/variant/orthodox"
	_ "github.com/refereed/refereed/variant/progressive"
	_ "github.com/refereed/refereed/variant/synchronous"
	_ "github.com/refereed/refereed/variant/trainwreck"
	_ "github.com/refereed/refereed/variant/transactional"
)

func init() { variant.SetWords(templates.SayWords) }
