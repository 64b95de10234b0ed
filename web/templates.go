package web

import "html/template"

var pages = template.Must(template.New("").Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.Title}} · refereed</title><link rel="stylesheet" href="/style.css"></head>
<body><nav><a href="/">Games</a><a href="/tournaments">Tournaments</a><a href="/ratings">Ratings</a><a href="/challenges">Challenges</a></nav>
<h1>{{.Title}}</h1>
{{end}}
{{define "foot"}}</body></html>
{{end}}
{{define "rows"}}<div class="scroll"><table><tr><th>#</th><th>Variant</th><th>White</th><th>Black</th><th>Result</th><th class="opt">Status</th><th>Tournament</th></tr>
{{range .}}<tr><td><a href="/game/{{.ID}}">{{.ID}}</a></td><td>{{.Variant}}</td><td><a href="/player/{{.White}}">{{.White}}</a></td><td><a href="/player/{{.Black}}">{{.Black}}</a></td><td>{{.Result}}</td><td class="opt">{{.Status}}</td><td>{{if .Tournament}}<a href="/tournament/{{.Tournament}}">#{{.Tournament}}</a> r{{.Round}}{{end}}</td></tr>
{{end}}</table></div>
{{end}}
{{define "games"}}{{template "head" .}}
<form method="get" action="/">
<label>Variant <select name="variant"><option value="">any</option>{{range .Variants}}<option{{if eq . $.Variant}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>Player <input name="player" value="{{.Player}}" size="12"></label>
<label>Tournament <input name="tournament" value="{{.Tournament}}" size="4"></label>
<label>Status <select name="status"><option value="">any</option><option value="active"{{if eq .Status "active"}} selected{{end}}>in progress</option><option value="over"{{if eq .Status "over"}} selected{{end}}>finished</option></select></label>
<button>Show</button></form>
{{if .Problem}}<p class="problem">{{.Problem}}</p>{{else}}<p>{{.Total}} {{if eq .Total 1}}game{{else}}games{{end}}; page {{.Page}} of {{.Pages}}.</p>
{{template "rows" .Rows}}{{end}}
<p>{{if .Prev}}<a href="{{.Prev}}">← newer</a>{{end}} {{if .Next}}<a href="{{.Next}}">older →</a>{{end}}</p>
{{template "foot"}}{{end}}
{{define "board"}}<figure>{{if .Title}}<figcaption>{{.Title}}</figcaption>{{end}}<table class="board">
{{range .Ranks}}<tr><th>{{.Label}}</th>{{range .Squares}}<td class="{{if .Dark}}d{{else}}l{{end}}{{if .Marked}} m{{end}}">{{.Glyph}}</td>{{end}}</tr>
{{end}}<tr><th></th>{{range .Files}}<th>{{.}}</th>{{end}}</tr></table>{{if .Legend}}<p class="note">Outlined: {{.Legend}}</p>{{end}}</figure>
{{end}}
{{define "game"}}{{template "head" .}}
<table>
<tr><th>White</th><td><a href="/player/{{.White}}">{{.White}}</a></td></tr>
<tr><th>Black</th><td><a href="/player/{{.Black}}">{{.Black}}</a></td></tr>
<tr><th>Variant</th><td>{{.Variant}}</td></tr>
{{if .Tournament}}<tr><th>Tournament</th><td><a href="/tournament/{{.Tournament}}">#{{.Tournament}}</a>, round {{.Round}}</td></tr>{{end}}
<tr><th>Status</th><td>{{if .Finished}}finished{{else}}in progress{{end}}</td></tr>
{{if .Finished}}<tr><th>Result</th><td><span class="nw">{{.Result}}</span>{{if .How}} ({{.How}}){{end}}</td></tr>{{end}}
{{if .Turn}}<tr><th>Turn</th><td>{{.Turn}}</td></tr>{{end}}
{{if .Clocks}}<tr><th>Clocks</th><td>{{range .Clocks}}<span class="nw">{{.}}</span><br>{{end}}<span class="note">time control {{.TimeControl}}</span></td></tr>{{end}}
{{range .Replaced}}<tr><th>Replaced</th><td>{{.}}</td></tr>{{end}}
</table>
{{if .Finished}}<p><a href="/game/{{.ID}}.pgn">Download PGN</a></p>
<h2>Position after step {{.Ply}} of {{.Plies}}</h2>
<p class="steps">{{if gt .Ply 0}}<a href="/game/{{.ID}}?step=0">|‹</a><a href="/game/{{.ID}}?step={{.Prev}}">‹ back</a>{{end}}{{if lt .Ply .Plies}}<a href="/game/{{.ID}}?step={{.Next}}">forward ›</a><a href="/game/{{.ID}}?step={{.Plies}}">›|</a>{{end}}</p>
{{range .Boards}}{{template "board" .}}{{end}}
{{range .Lines}}<p>{{.}}</p>{{end}}
<h2>Moves</h2><pre>{{.Movetext}}</pre>
<h2>The referee's log</h2><ol class="steps" start="0">{{range .Steps}}<li>{{if .Current}}<b>{{.Label}}</b>{{else}}<a href="/game/{{$.ID}}?step={{.N}}">{{.Label}}</a>{{end}}</li>{{end}}</ol>
{{else}}{{if .Hidden}}<p class="note">A game of hidden information in progress: the archive shows only what both players know. Everything is shown once it is over.</p>{{end}}
{{range .Boards}}{{template "board" .}}{{end}}
{{if .Lines}}<pre class="public">{{range .Lines}}{{.}}
{{end}}</pre>{{end}}
{{if .Movetext}}<h2>Moves</h2><pre>{{.Movetext}}</pre>{{end}}
{{end}}
{{template "foot"}}{{end}}
{{define "tournaments"}}{{template "head" .}}
<div class="scroll"><table><tr><th>#</th><th>Name</th><th>Variant</th><th>Players</th><th>Rounds</th><th>Status</th></tr>
{{range .Rows}}<tr><td>{{.ID}}</td><td><a href="/tournament/{{.ID}}">{{.Name}}</a></td><td>{{.Variant}}</td><td>{{.Players}}</td><td>{{.Rounds}}</td><td>{{if .Finished}}finished{{else}}in progress{{end}}</td></tr>
{{else}}<tr><td colspan="6">No tournaments.</td></tr>{{end}}</table></div>
{{if gt .Pages 1}}<p>{{.Total}} tournaments; page {{.Page}} of {{.Pages}}.</p>
<p>{{if .Prev}}<a href="{{.Prev}}">← newer</a>{{end}} {{if .Next}}<a href="{{.Next}}">older →</a>{{end}}</p>{{end}}
{{template "foot"}}{{end}}
{{define "challenges"}}{{template "head" .}}
<p class="note">Games anyone may take: mail <code>ACCEPT</code> and the number to the referee's address. A mail saying <code>CHALLENGE ANY orthodox</code> there makes one; <code>HELP</code> there lists the rest.</p>
<div class="scroll"><table><tr><th>#</th><th>From</th><th>Game</th><th>Challenger plays</th><th>Until</th></tr>
{{range .Rows}}<tr><td>{{.ID}}</td><td>{{.From}}</td><td>{{.Terms}}</td><td>{{.Colour}}</td><td>{{.Expires}}</td></tr>
{{else}}<tr><td colspan="5">No open challenge.</td></tr>{{end}}</table></div>
{{if gt .Total (len .Rows)}}<p>{{.Total}} open challenges; the oldest {{len .Rows}} are shown.</p>{{end}}
{{template "foot"}}{{end}}
{{define "tournament"}}{{template "head" .}}
<p>{{.Variant}}, {{if .Double}}double{{else}}single{{end}} round robin, {{if .Finished}}finished{{else}}in progress{{end}}. <a href="/?tournament={{.ID}}">All its games</a></p>
<h2>Standings</h2>
<div class="scroll"><table><tr><th>Rank</th><th>Player</th><th>Points</th><th>SB</th><th>Wins</th><th>Games</th></tr>
{{range .Standings}}<tr><td>{{.Rank}}</td><td><a href="/player/{{.Name}}">{{.Name}}</a>{{if .For}} (for {{.For}}){{end}}{{if .Out}} (withdrew){{end}}</td><td>{{.Points}}</td><td>{{.SB}}</td><td>{{.Wins}}</td><td>{{.Games}}</td></tr>
{{end}}</table></div>
<h2>Crosstable</h2><div class="scroll"><pre>{{.Crosstable}}</pre></div>
<p class="note">Each row reads from its player's side: 1 won, 0 lost, = drawn, + won without play, - lost without play (after a withdrawal), x not played, . still going, * himself. Pts points, SB Sonneborn-Berger, W wins; (w) withdrew.{{if .Double}} In a double round robin each player has two lines, the first cycle's and the second's (cycle 2).{{end}}</p>
<h2>Games</h2>
{{range .Rounds}}<h3>Round {{.Number}}{{if .Bye}} (bye: {{.Bye}}){{end}}</h3>{{template "rows" .Games}}{{end}}
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
<label>Variant <select name="variant"><option value="">any</option>{{range .Variants}}<option{{if eq . $.Variant}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<button>Show</button></form>
<p class="note">Glicko-2 ratings from the rated games. A rating marked ? is provisional: its deviation (RD) is above 110. The RD grows while a player plays no rated game.</p>
{{range .Lists}}<h2>{{.Name}}</h2>
{{if gt .Pages 1}}<p>{{.Total}} players; page {{.Page}} of {{.Pages}}.</p>{{end}}
<div class="scroll"><table><tr><th>Rank</th><th>Player</th><th>Rating</th><th>RD</th><th>Games</th></tr>
{{range .Rows}}<tr{{if .Provisional}} class="provisional"{{end}}><td>{{.Rank}}</td><td><a href="/player/{{.Player}}">{{.Player}}</a></td><td>{{.Rating}}{{if .Provisional}}?{{end}}</td><td>{{.RD}}</td><td>{{.Games}}</td></tr>
{{end}}</table></div>
{{if .More}}<p><a href="{{.More}}">All {{.Total}} players →</a></p>{{end}}
{{if or .Prev .Next}}<p>{{if .Prev}}<a href="{{.Prev}}">← better</a>{{end}} {{if .Next}}<a href="{{.Next}}">next →</a>{{end}}</p>{{end}}
{{else}}<p>No rated game{{if .VariantName}} of {{.VariantName}}{{end}} has ended yet.</p>{{end}}
{{template "foot"}}{{end}}
{{define "notfound"}}{{template "head" .}}
<p>{{.What}}</p>
<p><a href="/">Back to the games</a> · <a href="/tournaments">the tournaments</a></p>
{{template "foot"}}{{end}}
{{define "player"}}{{template "head" .}}
<p>Finished: {{.Won}} won, {{.Lost}} lost, {{.Drawn}} drawn; {{.Going}} in progress.</p>
{{if .Ratings}}<h2>Ratings</h2>
{{range .Ratings}}<section class="rating"><h3>{{.Variant}}: {{.Rating}}{{if .Provisional}}?{{end}}</h3>
<p>RD {{.RD}}{{if .Provisional}} (provisional){{end}}, {{.Games}} rated {{if eq .Games 1}}game{{else}}games{{end}}. <a href="/ratings">All ratings</a></p>
{{with .Chart}}{{template "chart" .}}{{end}}</section>
{{end}}{{end}}
<div class="scroll"><table><tr><th>#</th><th>Variant</th><th>Colour</th><th>Opponent</th><th>Result</th><th>Score</th><th>Status</th></tr>
{{range .Rows}}<tr><td><a href="/game/{{.ID}}">{{.ID}}</a></td><td>{{.Variant}}</td><td>{{.Colour}}</td><td><a href="/player/{{.Opponent}}">{{.Opponent}}</a></td><td>{{.Result}}</td><td>{{.Score}}</td><td>{{.Status}}</td></tr>
{{end}}</table></div>{{if .Truncated}}<p class="note">Only the newest {{len .Rows}} games are listed.</p>{{end}}
{{template "foot"}}{{end}}
`))
