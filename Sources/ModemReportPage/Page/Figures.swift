import ModemReport
import Plot

/// The report's figure pieces: a caption under a picture or chart, a picture with its
/// caption, and a titled chart section (its script draws into the element by id).
enum Figures {
    static func caption(_ text: String) -> Node<HTML.BodyContext> { .p(.class("caption"), .text(text)) }

    /// A PNG (as a data URI) with its alternative text and its caption underneath.
    static func picture(_ dataURI: String, alt: String, caption text: String) -> Node<HTML.BodyContext> {
        .div(.img(.class("picture"), .src(dataURI), .alt(alt)), caption(text))
    }

    /// A heading, the element a page script draws chart `id` into, and the caption.
    static func chart(_ title: String, id: String, caption text: String) -> Node<HTML.BodyContext> {
        .group(.h2(.text(title)), .div(.class("chart"), .id(id)), caption(text))
    }
}
