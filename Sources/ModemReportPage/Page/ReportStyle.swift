import ModemReport

/// The report's style sheet and its own scripts (the charting library comes separately).
enum ReportStyle {
    static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}
        h1{font-size:1.5em}h2{border-bottom:2px solid #ccc;margin-top:2em}h3{margin:1.2em 0 .4em}
        .facts{color:#555}.hint{padding:.3em .6em;margin:.2em 0;border-radius:4px;list-style:none}
        .hint.problem{background:#fde0e0}.hint.warning{background:#fff3cd}.hint.good{background:#dff5e1}
        ul.verdict{padding:0}.overview{width:100%;height:260px}
        img.picture{display:block;max-width:100%;border:1px solid #ccc}
        .scroll{overflow-x:auto;border:1px solid #ccc}.scroll img{display:block;border:0}
        .strip{position:relative;height:34px;font:12px monospace}
        .strip span{position:absolute;top:0;white-space:pre;text-align:center}
        .strip span b{display:block;font-weight:normal;color:#777}
        .err,.strip span.err{background:#fbb}
        table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
        td.text,th.text{text-align:left;font-family:monospace;white-space:pre}
        pre.decoded{background:#f6f6f6;padding:.6em;white-space:pre-wrap;max-height:20em;overflow:auto}
        .pair{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start}.caption{color:#555;font-size:12px}
        details{margin:1em 0;border:1px solid #ddd;padding:.4em .8em}summary{cursor:pointer;font-weight:600}
        #script-errors:empty{display:none}#script-errors{background:#fdd;color:#900}
        """

    /// Collects script errors into #script-errors, so a headless browser's DOM shows them.
    static let errorCollector = """
        window.__reportErrors=[];window.addEventListener('error',function(e){window.__reportErrors.push(String(e.message));\
        var p=document.getElementById('script-errors');if(p)p.textContent=window.__reportErrors.join('\\n');});
        """

    /// Draws every overview: `reportOverviews` holds one entry per recording.
    static let overviewScript = """
        (function(){
        var list=window.reportOverviews||[];
        list.forEach(function(o){
          var el=document.getElementById(o.id);
          var g=new Dygraph(el,o.data,{labels:['time (s)','peak','rms'],colors:['#1f77b4','#ff7f0e'],
            ylabel:'amplitude',xlabel:'time (s)',valueRange:[0,1.05],animatedZooms:false,
            legend:'follow',
            underlayCallback:function(ctx,area,g){
              ctx.fillStyle='rgba(44,160,44,0.18)';
              o.bursts.forEach(function(b){var a=g.toDomXCoord(b[0]),z=g.toDomXCoord(b[1]);
                ctx.fillRect(a,area.y,Math.max(1,z-a),area.h);});}});
          // Label only what fits: the bursts in view, at most 12 of them, spread evenly;
          // zooming in brings the others.
          var shown='';
          function label(g){var r=g.xAxisRange(),v=o.labels.filter(function(a){return a.x>=r[0]&&a.x<=r[1];});
            var step=Math.ceil(v.length/12)||1;v=v.filter(function(a,i){return i%step===0;});
            var key=v.map(function(a){return a.x;}).join(',');if(key!==shown){shown=key;g.setAnnotations(v);}}
          g.updateOptions({drawCallback:function(g){label(g);}},true);
          g.ready(function(){label(g);el.setAttribute('data-drawn','1');});
        });
        document.body.setAttribute('data-charts',String(list.length));
        })();
        // Once everything loaded, count what was drawn: images decoded to a size, canvases
        // with any ink (what a browser test, or a curious reader, checks).
        window.addEventListener('load',function(){
          var imgs=[].slice.call(document.images),drawn=imgs.filter(function(i){return i.complete&&i.naturalWidth>0;});
          var cs=[].slice.call(document.querySelectorAll('canvas')),inked=cs.filter(function(c){
            if(!c.width||!c.height)return false;var d=c.getContext('2d').getImageData(0,0,c.width,c.height).data;
            for(var k=3;k<d.length;k+=4){if(d[k]!==0)return true;}return false;});
          document.body.setAttribute('data-images',drawn.length+'/'+imgs.length);
          document.body.setAttribute('data-canvases',inked.length+'/'+cs.length);
        });
        """
}
