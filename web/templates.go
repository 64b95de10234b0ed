package web

import (
	"html/template"

	"github.com/refereed/refereed/lang"
)

// pages are the archive's pages; their words are sentences ("web/<name>", templates/words/web.tmpl)
// said in the page's language by w and wa (pagesIn).
var pages = template.Must(template.New("").Funcs(pageFuncs(lang.EN)).Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="{{lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.Title}} · refereed</title><link rel="stylesheet" href="/style.css"></head>
<body><nav><a href="/">{{w "nav-games"}}</a><a href="/tournaments">{{w "nav-tournaments"}}</a><a href="/ratings">{{w "nav-ratings"}}</a><a href="/challenges">{{w "nav-challenges"}}</a></nav>
<h1>{{.Title}}</h1>
{{end}}
{{define "foot"}}<p class="langs">{{range langs}}<a href="?lang={{.Tag}}" hreflang="{{.Tag}}" lang="{{.Tag}}">{{.Name}}</a> {{end}}</p>
</body></html>
{{end}}
{{define "rows"}}<div class="scroll"><table><tr><th>#</th><th>{{w "variant"}}</th><th>{{w "white"}}</th><th>{{w "black"}}</th><th>{{w "result"}}</th><th class="opt">{{w "status"}}</th><th>{{w "tournament"}}</th></tr>
{{range .}}<tr><td><a href="/game/{{.ID}}">{{.ID}}</a></td><td>{{.Variant}}</td><td><a href="/player/{{.White}}">{{.White}}</a></td><td><a href="/player/{{.Black}}">{{.Black}}</a></td><td>{{.Result}}</td><td class="opt">{{status .Status}}</td><td>{{if .Tournament}}<a href="/tournament/{{.Tournament}}">#{{.Tournament}}</a> r{{.Round}}{{end}}</td></tr>
{{end}}</table></div>
{{end}}
{{define "games"}}{{template "head" .}}
<form method="get" action="/">
<label>{{w "variant"}} <select name="variant"><option value="">{{w "any"}}</option>{{range .Variants}}<option{{if eq . $.Variant}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>{{w "player"}} <input name="player" value="{{.Player}}" size="12"></label>
<label>{{w "tournament"}} <input name="tournament" value="{{.Tournament}}" size="4"></label>
<label>{{w "status"}} <select name="status"><option value="">{{w "any"}}</option><option value="active"{{if eq .Status "active"}} selected{{end}}>{{w "in-progress"}}</option><option value="over"{{if eq .Status "over"}} selected{{end}}>{{w "finished"}}</option></select></label>
<button>{{w "show"}}</button></form>
{{if .Problem}}<p class="problem">{{.Problem}}</p>{{else}}<p>{{wa "games-page" "N" .Total "Page" .Page "Pages" .Pages}}</p>
{{template "rows" .Rows}}{{end}}
<p class="pages">{{if .First}}<a href="{{.First}}">« {{w "first-page"}}</a> {{end}}{{if .Prev}}<a href="{{.Prev}}">← {{w "newer"}}</a>{{end}} {{if .Next}}<a href="{{.Next}}">{{w "older"}} →</a>{{end}}{{if .Last}} <a href="{{.Last}}">{{w "last-page"}} »</a>{{end}}</p>
{{template "foot"}}{{end}}
{{define "board"}}<figure>{{if .Title}}<figcaption>{{.Title}}</figcaption>{{end}}<table class="board">
{{range .Ranks}}<tr><th>{{.Label}}</th>{{range .Squares}}<td class="{{if .Dark}}d{{else}}l{{end}}{{if .Marked}} m{{end}}">{{.Glyph}}</td>{{end}}</tr>
{{end}}<tr><th></th>{{range .Files}}<th>{{.}}</th>{{end}}</tr></table>{{if .Legend}}<p class="note">{{w "outlined"}}: {{.Legend}}</p>{{end}}</figure>
{{end}}
{{define "game"}}{{template "head" .}}
<table>
<tr><th>{{w "white"}}</th><td><a href="/player/{{.White}}">{{.White}}</a></td></tr>
<tr><th>{{w "black"}}</th><td><a href="/player/{{.Black}}">{{.Black}}</a></td></tr>
<tr><th>{{w "variant"}}</th><td>{{.Variant}}</td></tr>
{{if .Tournament}}<tr><th>{{w "tournament"}}</th><td><a href="/tournament/{{.Tournament}}">#{{.Tournament}}</a>, {{wa "round" "N" .Round}}</td></tr>{{end}}
<tr><th>{{w "status"}}</th><td>{{if .Finished}}{{w "finished"}}{{else}}{{w "in-progress"}}{{end}}</td></tr>
{{if .Finished}}<tr><th>{{w "result"}}</th><td><span class="nw">{{.Result}}</span>{{if .How}} ({{.How}}){{end}}</td></tr>{{end}}
{{if .Turn}}<tr><th>{{w "turn"}}</th><td>{{.Turn}}</td></tr>{{end}}
{{if .Clocks}}<tr><th>{{w "clocks"}}</th><td>{{range .Clocks}}<span class="nw">{{.}}</span><br>{{end}}<span class="note">{{wa "time-control" "Control" .TimeControl}}</span></td></tr>{{end}}
{{range .Replaced}}<tr><th>{{w "replaced"}}</th><td>{{.}}</td></tr>{{end}}
</table>
{{if .Finished}}<p><a href="/game/{{.ID}}.pgn">{{w "download-pgn"}}</a></p>
<h2>{{wa "position-after" "Ply" .Ply "Plies" .Plies}}</h2>
<p class="steps">{{if gt .Ply 0}}<a href="/game/{{.ID}}?step=0">|‹</a><a href="/game/{{.ID}}?step={{.Prev}}">‹ {{w "back"}}</a>{{end}}{{if lt .Ply .Plies}}<a href="/game/{{.ID}}?step={{.Next}}">{{w "forward"}} ›</a><a href="/game/{{.ID}}?step={{.Plies}}">›|</a>{{end}}</p>
{{range .Boards}}{{template "board" .}}{{end}}
{{range .Lines}}<p>{{.}}</p>{{end}}
<h2>{{w "moves"}}</h2><pre>{{.Movetext}}</pre>
<h2>{{w "log"}}</h2><ol class="steps" start="0">{{range .Steps}}<li>{{if .Current}}<b>{{.Label}}</b>{{else}}<a href="/game/{{$.ID}}?step={{.N}}">{{.Label}}</a>{{end}}</li>{{end}}</ol>
{{else}}{{if .Hidden}}<p class="note">{{w "hidden-note"}}</p>{{end}}
{{range .Boards}}{{template "board" .}}{{end}}
{{if .Lines}}<pre class="public">{{range .Lines}}{{.}}
{{end}}</pre>{{end}}
{{if .Movetext}}<h2>{{w "moves"}}</h2><pre>{{.Movetext}}</pre>{{end}}
{{end}}
{{template "foot"}}{{end}}
{{define "tournaments"}}{{template "head" .}}
<div class="scroll"><table><tr><th>#</th><th>{{w "name"}}</th><th>{{w "variant"}}</th><th>{{w "players"}}</th><th>{{w "rounds"}}</th><th>{{w "status"}}</th></tr>
{{range .Rows}}<tr><td>{{.ID}}</td><td><a href="/tournament/{{.ID}}">{{.Name}}</a></td><td>{{.Variant}}</td><td>{{.Players}}</td><td>{{.Rounds}}</td><td>{{if .Finished}}{{w "finished"}}{{else}}{{w "in-progress"}}{{end}}</td></tr>
{{else}}<tr><td colspan="6">{{w "no-tournaments"}}</td></tr>{{end}}</table></div>
{{if gt .Pages 1}}<p>{{wa "tournaments-page" "N" .Total "Page" .Page "Pages" .Pages}}</p>
<p>{{if .Prev}}<a href="{{.Prev}}">← {{w "newer"}}</a>{{end}} {{if .Next}}<a href="{{.Next}}">{{w "older"}} →</a>{{end}}</p>{{end}}
{{template "foot"}}{{end}}
{{define "challenges"}}{{template "head" .}}
<p class="note">{{w "challenges-note"}}</p>
<div class="scroll"><table><tr><th>#</th><th>{{w "from"}}</th><th>{{w "game"}}</th><th>{{w "challenger-plays"}}</th><th>{{w "until"}}</th></tr>
{{range .Rows}}<tr><td>{{.ID}}</td><td>{{.From}}</td><td>{{.Terms}}</td><td>{{colour .Colour}}</td><td>{{.Expires}}</td></tr>
{{else}}<tr><td colspan="5">{{w "no-challenge"}}</td></tr>{{end}}</table></div>
{{if gt .Total (len .Rows)}}<p>{{wa "challenges-more" "N" .Total "Shown" (len .Rows)}}</p>{{end}}
{{template "foot"}}{{end}}
{{define "tournament"}}{{template "head" .}}
<p>{{.Variant}}, {{if .Double}}{{w "double-rr"}}{{else}}{{w "single-rr"}}{{end}}, {{if .Finished}}{{w "finished"}}{{else}}{{w "in-progress"}}{{end}}. <a href="/?tournament={{.ID}}">{{w "all-its-games"}}</a></p>
<h2>{{w "standings"}}</h2>
<div class="scroll"><table><tr><th>{{w "rank"}}</th><th>{{w "player"}}</th><th>{{w "points"}}</th><th>SB</th><th>{{w "wins"}}</th><th>{{w "games"}}</th></tr>
{{range .Standings}}<tr><td>{{.Rank}}</td><td><a href="/player/{{.Name}}">{{.Name}}</a>{{if .For}} ({{wa "for" "Name" .For}}){{end}}{{if .Out}} ({{w "withdrew"}}){{end}}</td><td>{{.Points}}</td><td>{{.SB}}</td><td>{{.Wins}}</td><td>{{.Games}}</td></tr>
{{end}}</table></div>
<h2>{{w "crosstable"}}</h2><div class="scroll"><pre>{{.Crosstable}}</pre></div>
<p class="note">{{w "crosstable-note"}}{{if .Double}} {{w "crosstable-double"}}{{end}}</p>
<h2>{{w "games"}}</h2>
{{range .Rounds}}<h3>{{wa "round-title" "N" .Number}}{{if .Bye}} ({{wa "bye" "Name" .Bye}}){{end}}</h3>{{template "rows" .Games}}{{end}}
{{template "foot"}}{{end}}
{{define "chart"}}<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="{{.Summary}}">
<title>{{.Summary}}</title>
<line class="axis" x1="0" y1="0" x2="0" y2="{{.Height}}"/><line class="axis" x1="0" y1="{{.Height}}" x2="{{.Width}}" y2="{{.Height}}"/>
<text class="label" x="4" y="{{.TopY}}">{{.Top}}</text><text class="label" x="4" y="{{.BottomY}}">{{.Bottom}}</text>
<polyline class="line" points="{{.Points}}"/>
{{range .Dots}}<circle class="dot" cx="{{.X}}" cy="{{.Y}}" r="2.5"><title>{{.Title}}</title></circle>{{end}}
</svg><figcaption class="note">{{.Summary}}</figcaption></figure>
{{end}}
{{define "ratings"}}{{template "head" .}}
<form method="get" action="/ratings">
<label>{{w "variant"}} <select name="variant"><option value="">{{w "any"}}</option>{{range .Variants}}<option{{if eq . $.Variant}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<button>{{w "show"}}</button></form>
<p class="note">{{w "ratings-note"}}</p>
{{range .Lists}}<h2>{{.Name}}</h2>
{{if gt .Pages 1}}<p>{{wa "players-page" "N" .Total "Page" .Page "Pages" .Pages}}</p>{{end}}
<div class="scroll"><table><tr><th>{{w "rank"}}</th><th>{{w "player"}}</th><th>{{w "rating"}}</th><th>RD</th><th>{{w "games"}}</th></tr>
{{range .Rows}}<tr{{if .Provisional}} class="provisional"{{end}}><td>{{.Rank}}</td><td><a href="/player/{{.Player}}">{{.Player}}</a></td><td>{{.Rating}}{{if .Provisional}}?{{end}}</td><td>{{.RD}}</td><td>{{.Games}}</td></tr>
{{end}}</table></div>
{{if .More}}<p><a href="{{.More}}">{{wa "all-players" "N" .Total}} →</a></p>{{end}}
{{if or .Prev .Next}}<p class="pages">{{if .First}}<a href="{{.First}}">« {{w "first-page"}}</a> {{end}}{{if .Prev}}<a href="{{.Prev}}">← {{w "better"}}</a>{{end}} {{if .Next}}<a href="{{.Next}}">{{w "next"}} →</a>{{end}}{{if .Last}} <a href="{{.Last}}">{{w "last-page"}} »</a>{{end}}</p>{{end}}
{{else}}<p{{if .Problem}} class="problem">{{.Problem}}{{else}}>{{wa "no-rated" "Variant" .VariantName}}{{end}}</p>{{end}}
{{template "foot"}}{{end}}
{{define "notfound"}}{{template "head" .}}
<p>{{.What}}</p>
<p><a href="/">{{w "back-to-games"}}</a> · <a href="/tournaments">{{w "the-tournaments"}}</a></p>
{{template "foot"}}{{end}}
{{define "player"}}{{template "head" .}}
<p>{{wa "player-summary" "Won" .Won "Lost" .Lost "Drawn" .Drawn "Going" .Going}}</p>
{{if .Ratings}}<h2>{{w "nav-ratings"}}</h2>
{{range .Ratings}}<section class="rating"><h3>{{.Variant}}: {{.Rating}}{{if .Provisional}}?{{end}}</h3>
<p>RD {{.RD}}{{if .Provisional}} ({{w "provisional"}}){{end}}, {{wa "rated-games" "N" .Games}}. <a href="/ratings">{{w "all-ratings"}}</a></p>
{{with .Chart}}{{template "chart" .}}{{end}}</section>
{{end}}{{end}}
<div class="scroll"><table><tr><th>#</th><th>{{w "variant"}}</th><th>{{w "colour"}}</th><th>{{w "opponent"}}</th><th>{{w "result"}}</th><th>{{w "score"}}</th><th>{{w "status"}}</th></tr>
{{range .Rows}}<tr><td><a href="/game/{{.ID}}">{{.ID}}</a></td><td>{{.Variant}}</td><td>{{colour .Colour}}</td><td><a href="/player/{{.Opponent}}">{{.Opponent}}</a></td><td>{{.Result}}</td><td>{{.Score}}</td><td>{{status .Status}}</td></tr>
{{end}}</table></div>{{if .Truncated}}<p class="note">{{wa "truncated" "N" (len .Rows)}}</p>{{end}}
{{template "foot"}}{{end}}
`))
