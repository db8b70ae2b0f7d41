import Boxes
import Evaluation
import Foundation
import Images

/// The report's "Where it fails" section: the error kinds of each class at its threshold with the AP50
/// each costs (TIDE's breakdown), and the gallery of `ErrorGallery`: crops filterable by class and kind
/// and sortable by score or size in the page, the most frequent class confusions, the screens with the
/// most errors. Crops are JPEG data in the page, decoded only when scrolled near (a small inline script).
extension EvaluationReport {
    /// Each kind's colour and its name on the page.
    static let kinds: [(kind: ErrorKind, name: String, color: String)] = [
        (.truePositive, "true positive", "#2a9d4a"), (.background, "background", "#d03030"), (.duplicate, "duplicate", "#8a4fd0"),
        (.wrongClass, "wrong class", "#e07b00"), (.poorLocalization, "poor localisation", "#1f6fd0"), (.missed, "missed", "#111111"),
    ]

    static func kindName(_ k: ErrorKind) -> String { kinds.first { $0.kind == k }!.name }
    static func color(_ k: ErrorKind) -> String { kinds.first { $0.kind == k }!.color }

    func errorsSection(_ errors: ErrorAnalysis) -> String {
        var h = "<style>\(Self.errorsStyle)\(OutlinedPicture.style)</style><h2 id=\"errors\">Where it fails</h2><p class=\"note\">At each class's picked threshold (0.5 where none, marked *): every kept detection is a "
            + "true positive or a false positive of one kind, every true box is matched or missed (README, &ldquo;Where a detector fails&rdquo;). "
            + "Background: near no true box; duplicate: on a box a higher-scoring detection took; wrong class: on a box of another class; "
            + "poor localisation: on a box of its class at IoU 0.1 to below \(result.iouThreshold). "
            + "The +columns are the AP50 gained when that kind of error alone is fixed over the whole curve (TIDE, Bolya et al. 2020); they do not add up to the loss. "
            + "Click a count to see those errors below; click a heading to sort.</p>"
        h += errorTable(errors)
        if let gallery { h += galleryHTML(errors, gallery) }
        return h
    }

    private func errorTable(_ errors: ErrorAnalysis) -> String {
        let countKinds = ErrorKind.allCases
        var h = "<table class=\"sortable\" id=\"error-table\"><tr><th>class</th><th>threshold</th>"
        h += countKinds.map { "<th>\(Self.kindName($0))</th>" }.joined() + "<th>AP50</th>"
        h += APGains.kinds.map { "<th>+\(Self.kindName($0))</th>" }.joined() + "</tr>"
        for (c, e) in zip(result.classes, errors.classes) {  // same vocabulary, same order
            h += "<tr><td>\(escape(e.name))</td><td data-v=\"\(e.threshold)\">\(String(format: "%.3f", e.threshold))\(e.thresholdPicked ? "" : "*")</td>"
            for k in countKinds {
                let n = e.counts[k]
                h += n == 0 || k == .truePositive ? "<td>\(n)</td>" : "<td><a href=\"#gallery\" data-fc=\"\(escape(e.name))\" data-fk=\"\(k.rawValue)\">\(n)</a></td>"
            }
            h += "<td data-v=\"\(c.ap50 ?? -1)\">\(pct(c.ap50))</td>"
            h += APGains.kinds.map { k in "<td data-v=\"\(e.gains?[k] ?? -1)\">\(pct(e.gains?[k]))</td>" }.joined() + "</tr>"
        }
        h += "<tr class=\"fixed\"><th>mean</th><th colspan=\"\(countKinds.count + 1)\"></th><th>\(pct(result.map50))</th>"
        h += APGains.kinds.map { k in "<th>\(pct(errors.meanGains?[k]))</th>" }.joined() + "</tr></table>"
        return h
    }

    private func galleryHTML(_ errors: ErrorAnalysis, _ gallery: ErrorGallery) -> String {
        let names = result.classes.map(\.name)
        let records = errors.records
        var h = "<h3 id=\"gallery\">Gallery</h3><p class=\"note\">Per class, its \(ErrorGallery.perClass) highest-scoring false positives and its "
            + "\(ErrorGallery.perClass) largest missed boxes, cut from the screens with a margin around them. Solid outline: the detection or the missed box, "
            + "in the colour of its kind; dashed: the box it relates to (a false positive's true box, a missed box's nearest detection).</p>"
        h += "<div class=\"legend\">" + Self.kinds.filter { $0.kind != .truePositive }.map { "<span><i style=\"background:\($0.color)\"></i>\($0.name)</span>" }.joined() + "</div>"
        h += "<div class=\"controls\"><label>class <select id=\"g-class\"><option value=\"\">all</option>"
        h += names.map { "<option value=\"\(escape($0))\">\(escape($0))</option>" }.joined() + "</select></label> "
        h += "<label>kind <select id=\"g-kind\"><option value=\"\">all</option><option value=\"fp\">false positives</option>"
        h += Self.kinds.filter { $0.kind != .truePositive }.map { "<option value=\"\($0.kind.rawValue)\">\($0.name)</option>" }.joined() + "</select></label> "
        h += "<label>sort <select id=\"g-sort\"><option value=\"o\">by class, worst first</option><option value=\"s\">score, highest first</option>"
            + "<option value=\"a\">size, largest first</option></select></label> <span id=\"g-count\" class=\"note\"></span></div>"
        h += "<div class=\"gallery\" id=\"g-tiles\">"
        for (position, n) in gallery.selection.tiles.enumerated() {
            guard let crop = gallery.crops[n] else { continue }
            h += tile(records[n], crop, position: position, names: names)
        }
        h += "</div>"
        if !gallery.selection.confusions.isEmpty {
            h += "<h3>Class confusions</h3><p class=\"note\">Wrong-class detections by true class and detected class, most frequent first, with the highest-scoring examples.</p>"
            h += "<table class=\"confusions\"><tr><th>true class</th><th>detected as</th><th>count</th><th>examples</th></tr>"
            for c in gallery.selection.confusions {
                h += "<tr><td>\(escape(names[c.truth]))</td><td>\(escape(names[c.detected]))</td><td>\(c.count)</td><td><div class=\"gallery\">"
                h += c.examples.compactMap { n in gallery.crops[n].map { tile(records[n], $0, position: nil, names: names) } }.joined()
                h += "</div></td></tr>"
            }
            h += "</table>"
        }
        if !gallery.screens.isEmpty {
            h += "<h3>Screens with the most errors</h3><p class=\"note\">False positives and missed boxes outlined in the colours of their kinds.</p><div class=\"screens\">"
            for s in gallery.screens {
                h += "<div class=\"screen\"><h4>\(escape(s.imageID)): \(s.errors) errors</h4>"
                h += s.picture.html(s.boxes.map { n, b -> OutlinedPicture.Outline in
                    let r = records[n]
                    return .init(b, color: Self.color(r.kind), title: "\(names[r.label]) \(Self.kindName(r.kind))" + (r.score.map { String(format: " %.2f", $0) } ?? ""))
                }) + "</div>"
            }
            h += "</div>"
        }
        return h + "<script>\(Self.galleryScript)</script>"
    }

    /// One crop with its boxes and caption; `position` orders the gallery by class, worst first.
    private func tile(_ r: ErrorRecord, _ crop: ErrorGallery.Crop, position: Int?, names: [String]) -> String {
        let color = Self.color(r.kind)
        var about = Self.kindName(r.kind)
        switch r.kind {
        case .wrongClass: about += r.other.map { ": is \(names[$0.label])" } ?? ""
        case .poorLocalization: about += r.other.map { String(format: ": IoU %.2f", $0.iou) } ?? ""
        case .missed: about += r.reason.map { ": " + $0.rawValue.replacingOccurrences(of: "_", with: " ") } ?? ""
        default: break
        }
        let score = r.score.map { String(format: " %.2f", $0) } ?? ""
        var h = "<figure class=\"tile\" data-c=\"\(escape(names[r.label]))\" data-k=\"\(r.kind.rawValue)\" data-s=\"\(r.score ?? -1)\" data-a=\"\(r.box.area)\""
        if let position { h += " data-o=\"\(position)\"" }
        var outlines: [OutlinedPicture.Outline] = []
        if let o = crop.other { outlines.append(OutlinedPicture.Outline(o, color: "#ffffff", dashed: true)) }
        outlines.append(OutlinedPicture.Outline(crop.box, color: color))
        h += ">" + crop.picture.html(outlines)
        h += "<figcaption><b>\(escape(names[r.label]))\(score)</b><br>\(escape(about))<br><span title=\"\(escape(r.imageID))\">\(escape(r.imageID))</span></figcaption></figure>"
        return h
    }

    /// Styles of the section.
    static let errorsStyle = """
        .gallery{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}.tile{margin:0;width:132px;font-size:11px;color:#444}
        .tile figcaption{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .controls{margin:8px 0;font-size:13px}.controls select{margin-right:8px}
        table.sortable th{cursor:pointer}table.confusions td{vertical-align:top}
        """

    /// The gallery's filters and sorting, links from
    /// the table's counts to the gallery, and sorting of the error table by a click on a heading.
    static let galleryScript = """
        (function(){
        var box=document.getElementById('g-tiles');if(!box)return;
        var tiles=[].slice.call(box.children),cls=document.getElementById('g-class'),kind=document.getElementById('g-kind'),sort=document.getElementById('g-sort'),count=document.getElementById('g-count');
        function num(t,a){return parseFloat(t.getAttribute('data-'+a));}
        function update(){var c=cls.value,k=kind.value,s=sort.value,n=0;
        tiles.sort(function(a,b){var d=s==='o'?num(a,'o')-num(b,'o'):num(b,s)-num(a,s);return d||num(a,'o')-num(b,'o');});
        var f=document.createDocumentFragment();
        tiles.forEach(function(t){var tk=t.getAttribute('data-k');var ok=(!c||t.getAttribute('data-c')===c)&&(!k||tk===k||(k==='fp'&&tk!=='missed'));t.style.display=ok?'':'none';if(ok)n++;f.appendChild(t);});
        box.appendChild(f);count.textContent=n+' of '+tiles.length+' crops';}
        [cls,kind,sort].forEach(function(e){e.addEventListener('change',update);});
        document.querySelectorAll('a[data-fk]').forEach(function(a){a.addEventListener('click',function(){cls.value=a.getAttribute('data-fc');kind.value=a.getAttribute('data-fk');update();});});
        document.querySelectorAll('table.sortable').forEach(function(t){var rows=[].slice.call(t.rows,1).filter(function(r){return !r.classList.contains('fixed');});var last=-1,dir=1;
        [].slice.call(t.rows[0].cells).forEach(function(th,j){th.addEventListener('click',function(){dir=last===j?-dir:(j===0?1:-1);last=j;
        function v(r){var c=r.cells[j],x=c.getAttribute('data-v');x=x===null?parseFloat(c.textContent):parseFloat(x);return isNaN(x)?c.textContent:x;}
        rows.sort(function(a,b){var x=v(a),y=v(b);return (x<y?-1:x>y?1:0)*dir;});var end=t.rows[t.rows.length-1];rows.forEach(function(r){end.parentNode.insertBefore(r,end);});});});});
        update();})();
        """
}
