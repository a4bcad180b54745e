//! Lab 5, 05-protocol.sh: labs 1 and 2 again under the classic or the KIP-848 consumer group
//! protocol.

use anyhow::Result;
use krb_log::logline::{Event, Offset, Partition};

use crate::facts::{revoked, Run, NO_LINE};
use crate::messages::{both, said, Message, Shared};
use crate::{maxpoll, revoke, shown, Lab, Protocol, Verdict};

said! {
    /// Lab 5's own statements and numbers (it checks lab 1's and lab 2's too).
    pub enum Said {
        ClassicRevokedEvery => "classic: a revoked every partition when b joined",
            "classic: b가 들어올 때 a가 모든 파티션을 반납함";
        ConsumerRevokedOnlyMoved => "consumer: a revoked only the partition that moved",
            "consumer: a가 옮겨 가는 파티션만 반납함";
        SeeLabs => "classic: see labs 1 and 2", "classic: 실습 1, 2와 같음";
        NotInArticle => "not in the article", "글에 없음";
        Lab { lab: u8, text: Box<Message> } => "lab {lab}: {text}", "실습 {lab}: {text}";
        ARevoked { text: Box<Message>, list: Option<String> } => |lang| {
            let text = text.text(lang);
            match list {
                Some(list) => both!(lang, "{text}, a revoked {list}", "{text}, a가 {list} 반납"),
                None => both!(lang, "{text}, a revoked nothing", "{text}, a는 아무것도 반납하지 않음"),
            }
        };
    }
}

/// The group of lab 5's second part, lab 2's scenario.
pub fn maxpoll_group(group: &str) -> String {
    format!("{group}_maxpoll")
}

/// Lab 5's verdict: `lab1` ran lab 1's scenario in the group, `lab2` lab 2's in
/// [`maxpoll_group`], whose committed offsets are `committed`.
pub fn verdict(
    lab1: &Run,
    lab2: &Run,
    committed: &[(Partition, Option<Offset>)],
    protocol: Protocol,
) -> Result<Verdict> {
    let classic = protocol == Protocol::Classic;
    let article = match classic {
        true => Said::SeeLabs,
        false => Said::NotInArticle,
    };
    let mut v = Verdict::of(Lab::Protocol { protocol }, &lab1.group, article);
    revoke::checks(&mut v, lab1, false)?;
    let first = v.ours.clone();
    // Both parts name their numbers alike (duplicates): each keeps its part's name before it.
    let lab1_numbers = std::mem::take(&mut v.numbers);
    let a = lab1.member("a")?;
    let b_start = lab1
        .member("b")?
        .time_of(0, |e| e == &Event::Start)
        .ok_or_else(|| Run::missing(NO_LINE[0], "b"))?;
    let first_revoke = a
        .lines
        .iter()
        .find(|l| l.at >= b_start && revoked(&l.event).is_some())
        .and_then(|l| revoked(&l.event).cloned());
    let moved: Vec<Partition> = lab1.report.runs.iter().map(|r| r.partition).collect();
    let (statement, held) = match classic {
        true => (Said::ClassicRevokedEvery, first_revoke == Some(vec![0, 1])),
        false => (
            Said::ConsumerRevokedOnlyMoved,
            matches!(&first_revoke, Some(ps) if ps.len() == 1
                && (moved.is_empty() || moved == *ps)),
        ),
    };
    // a's first revoke after b joined, as lab 3 counts a revoke, or none.
    let list = first_revoke.as_ref().map(shown::list);
    let detail = list
        .clone()
        .map_or(Shared::Nothing, |list| Shared::Revoked { list });
    v.check(statement, held, detail);
    maxpoll::checks(&mut v, lab2, committed, classic)?;
    let lab2_numbers = std::mem::take(&mut v.numbers);
    for (part, numbers) in [("lab1", lab1_numbers), ("lab2", lab2_numbers)] {
        for (name, n) in numbers {
            v.numbers.insert(format!("{part}.{name}"), n);
        }
    }
    v.ours = ours(first, list, v.ours.clone());
    Ok(v)
}

/// `lab 1: {lab 1's numbers}, a revoked [1]; lab 2: {lab 2's}`: each lab's parts, its first
/// one named, what a revoked after lab 1's last.
fn ours(lab1: Message, list: Option<String>, lab2: Message) -> Message {
    let named = |lab: u8, m: Message| {
        let mut parts = match m {
            Message::Parts(parts) => parts,
            other => vec![other],
        };
        if !parts.is_empty() {
            let text = Box::new(parts.remove(0));
            parts.insert(0, Said::Lab { lab, text }.into());
        }
        parts
    };
    let mut lab1 = named(1, lab1);
    if let Some(text) = lab1.pop().map(Box::new) {
        lab1.push(Said::ARevoked { text, list }.into());
    }
    Message::Parts([lab1, named(2, lab2)].concat())
}
