// What the owner's pages add to the link pages' stylesheet: a wider shell, the navigation, figures,
// tables that scroll inside themselves on a narrow screen, and the chart. Sizes in rem (zoom and the
// browser's text size work); every colour pair at least 7:1 for text.
export const ownerStyles = `
.shell--wide{max-width:64rem}
.skip-link{position:absolute;left:0.5rem;top:-10rem;background:#fff;color:var(--teal-dark);padding:0.75rem 1rem;border-radius:0.5rem;z-index:1}
.skip-link:focus{top:0.5rem}
main:focus{outline:none}
.owner-header{display:flex;flex-wrap:wrap;gap:0.5rem 1.5rem;align-items:center;justify-content:space-between}
.owner-header__who{display:flex;flex-wrap:wrap;gap:0.5rem 1rem;align-items:center;color:var(--muted);font-size:1.125rem}
.owner-header__who form{margin:0}
.owner-nav ul{display:flex;flex-wrap:wrap;gap:0.25rem 0.5rem;list-style:none;margin:0 0 1rem;padding:0}
.owner-nav a{display:inline-flex;align-items:center;min-height:2.75rem;padding:0.25rem 0.75rem;border-radius:0.5rem;font-weight:700;color:var(--teal-dark)}
.owner-nav a[aria-current=page]{background:var(--teal-dark);color:#fff;text-decoration:none}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(12rem,100%),1fr));gap:1rem;margin:0 0 1.5rem;padding:0;list-style:none}
.figures li{background:var(--cream);border-radius:0.75rem;padding:1rem}
.figures dt,.figure__label{display:block;font-size:1.125rem;color:var(--muted)}
.figures dd,.figure__value{display:block;margin:0;font-size:2rem;font-weight:800;line-height:1.2}
.figure__note{display:block;font-size:min(1.125rem,5.5vw);color:var(--muted)}
.table-scroll{overflow-x:auto;margin:0 0 1.5rem;max-width:100%}
/* The funnel's columns (both pages, then each language's) scroll on a phone; what each row counts stays readable. */
#funnel-heading+.table-scroll th[scope=row]{min-width:10rem}
table{border-collapse:collapse;width:100%;font-size:1.125rem}
caption{text-align:left;font-weight:700;padding:0 0 0.5rem}
th,td{text-align:left;padding:0.5rem 0.75rem;border-bottom:0.0625rem solid var(--sand);vertical-align:top}
/* Cells break between words only; a table wider than the screen scrolls sideways in its own box. */
th,td{overflow-wrap:normal}
th{font-weight:700}
@media (max-width:30rem){th,td{padding:0.5rem 0.375rem}}
td.number,th.number{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.word{overflow-wrap:normal;white-space:nowrap}
.replies{list-style:none;padding:0;margin:0}
.replies li{border-bottom:0.0625rem solid var(--sand);padding:0.75rem 0}
.replies p{margin:0;overflow-wrap:anywhere}
.chart{display:block;width:100%;height:auto;max-height:18rem;margin:0 0 1rem}
.chart__bar{fill:var(--teal)}
.chart__axis{stroke:var(--muted);stroke-width:1}
.chart__label{fill:var(--ink);font-size:22px}
.two-columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(18rem,100%),1fr));gap:0 2rem}
details{margin:0 0 1.5rem}
summary{cursor:pointer;min-height:2.75rem;display:flex;align-items:center;font-weight:700;color:var(--teal-dark)}
label{display:block;font-weight:700;margin:0 0 0.5rem}
.hint{color:var(--muted);font-size:1.125rem;margin:0 0 0.5rem}
.actions--spaced{margin:1.5rem 0}
select,input[type=email],input[type=search],input[type=text],input[type=tel]{font:inherit;width:100%;max-width:32rem;min-height:3rem;padding:0.5rem 0.75rem;border:0.125rem solid var(--muted);border-radius:0.5rem;background:#fff;color:var(--ink)}
.search{display:flex;flex-wrap:wrap;gap:0.75rem;align-items:flex-end;margin:0 0 1.5rem}
.search div{flex:1 1 16rem}
.notice{padding:0.75rem 1rem;margin:0 0 1.5rem;font-weight:700;border-left:0.375rem solid var(--success);background:#eef7f1}
.notice--error{border-left-color:var(--error);background:#fbeeed}
.level{font-weight:700;white-space:nowrap}
.level--red{color:var(--error)}
.field{margin:0 0 1.25rem}
.field-error{color:var(--error);font-weight:700;margin:0 0 0.5rem}
.cell--error{color:var(--error);font-weight:700}
.jobs{list-style:none;margin:0;padding:0}
.jobs li{padding:0.75rem 0;border-bottom:0.0625rem solid var(--sand)}
.jobs h3{margin:0 0 0.5rem;font-size:min(1.125rem,5.5vw)}
.jobs dl{display:grid;grid-template-columns:max-content 1fr;gap:0.25rem 1rem;margin:0}
.jobs dt{color:var(--muted)}
.jobs dd{margin:0;overflow-wrap:anywhere}
@media (max-width:30rem){.jobs dl{grid-template-columns:1fr}.jobs dd{margin:0 0 0.5rem}}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.secret{display:block;padding:0.5rem;overflow-wrap:anywhere;font-size:1.125rem;background:#fff;border:2px solid var(--teal);user-select:all}
.address{overflow-wrap:anywhere}
.progress{width:100%;height:1.5rem;accent-color:var(--teal)}
[hidden]{display:none!important}
.notice--pause{font-size:1.25rem;font-weight:400;border-left-width:0.5rem}
.notice--pause h2{font-size:min(1.5rem,8vw);margin:0 0 0.5rem}
.notice--pause p{margin:0 0 0.5rem}
.notice--pause p:last-child{margin:0}
.pauses__next{margin:0 0 1.5rem}
.pauses__next p{margin:0 0 0.75rem;font-weight:700}
tr.has-pauses td{border-bottom:0}
.pause-lines{list-style:none;margin:0;padding:0 0 0 0.75rem;border-left:0.375rem solid var(--error);overflow-wrap:break-word}
.pause-lines li{margin:0 0 0.25rem}
.pause-lines strong{color:var(--error)}
legend h2{margin:0}
label.choice{font-weight:700;margin:0}
label.language-choice{display:flex;align-items:center;gap:0.75rem;min-height:2.75rem}
label.language-choice input{width:1.5rem;height:1.5rem;margin:0}
`;
