//! The groups with live members that read a topic, which `krb-topic` will not delete from under
//! them (in a room on one broker, no one wipes another's data), by the broker's names. The rule
//! ([`decide`]) and its measures: docs/en/internals/broker-questions.md, "Who reads a topic".

use std::collections::BTreeSet;
use std::time::Duration;

use anyhow::Result;
use krb_cli::lang::Lang;
use rdkafka::client::{Client, ClientContext};

use crate::group_admin::{self, Group, State};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub group: String,
    pub members: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Look {
    pub readers: Vec<Reader>,
    /// Groups with live members in their first rebalance: what they read is not known yet.
    pub unsure: Vec<String>,
}

/// Which of `groups` read `topic`, and which cannot be told yet. A group reads it when a member
/// owns one of its partitions; when no member owns any, `committed` gives the topics the group
/// has committed offsets of (asked then only).
pub fn decide(
    topic: &str,
    groups: &[Group],
    mut committed: impl FnMut(&str) -> Result<BTreeSet<String>>,
) -> Result<Look> {
    let mut look = Look::default();
    for group in groups.iter().filter(|g| !g.members.is_empty()) {
        let owned: Vec<_> = group
            .members
            .iter()
            .flat_map(|m| m.assigned.iter().chain(&m.target))
            .collect();
        let reads = owned.iter().any(|(t, _)| t == topic);
        let topics = match (reads, owned.is_empty()) {
            (false, true) => committed(&group.id)?,
            _ => BTreeSet::new(),
        };
        if reads || topics.contains(topic) {
            look.readers.push(Reader {
                group: group.id.clone(),
                members: group.members.len(),
            });
        } else if owned.is_empty() && topics.is_empty() && group.state != State::Stable {
            look.unsure.push(group.id.clone());
        }
    }
    Ok(look)
}

/// Asks the broker which groups with live members read `topic` (the broker's name for it).
pub fn look<C: ClientContext>(client: &Client<C>, topic: &str, timeout: Duration) -> Result<Look> {
    // An empty group has no member by definition: only the others are described (a `consumer`
    // group that is assigning or reconciling is listed as Unknown: described too).
    let ids: Vec<String> = group_admin::list(client, timeout)?
        .into_iter()
        .filter(|(_, state)| *state != State::Empty)
        .map(|(id, _)| id)
        .collect();
    let described = group_admin::describe(client, &ids, timeout)?;
    decide(topic, &described, |group| {
        Ok(group_admin::committed(client, group, timeout)?
            .into_iter()
            .map(|((topic, _), _)| topic)
            .collect())
    })
}

/// "group g (1 live member)", "groups g (2 live members) and h (1 live member)"; in Korean
/// "g 그룹(살아 있는 구성원 2명), h 그룹(살아 있는 구성원 1명)".
pub fn named(lang: Lang, readers: &[Reader]) -> String {
    let each: Vec<String> = readers
        .iter()
        .map(|r| match lang {
            Lang::En => format!("{} ({})", r.group, members(lang, r.members)),
            Lang::Ko => format!("{} 그룹({})", r.group, members(lang, r.members)),
        })
        .collect();
    match (lang, each.as_slice()) {
        (Lang::Ko, _) => each.join(", "),
        (Lang::En, [one]) => format!("group {one}"),
        (Lang::En, [init @ .., last]) => format!("groups {} and {last}", init.join(", ")),
        (Lang::En, []) => "no group".to_string(),
    }
}

/// "1 live member", "2 live members", "살아 있는 구성원 2명".
pub fn members(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 live member".to_string(),
        (Lang::En, _) => format!("{n} live members"),
        (Lang::Ko, _) => format!("살아 있는 구성원 {n}명"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group_admin::Member;
    use std::collections::BTreeMap;

    fn member(assigned: &[(&str, i32)], target: &[(&str, i32)]) -> Member {
        let owned = |ps: &[(&str, i32)]| ps.iter().map(|(t, p)| (t.to_string(), *p)).collect();
        Member {
            assigned: owned(assigned),
            target: owned(target),
        }
    }

    fn group(id: &str, state: State, members: Vec<Member>) -> Group {
        Group {
            id: id.into(),
            state,
            members,
        }
    }

    /// The committed topics of each group, and the groups that were asked.
    struct Commits {
        topics: BTreeMap<&'static str, Vec<&'static str>>,
        asked: Vec<String>,
    }

    impl Commits {
        fn new(topics: &[(&'static str, &[&'static str])]) -> Commits {
            Commits {
                topics: topics.iter().map(|(g, ts)| (*g, ts.to_vec())).collect(),
                asked: Vec::new(),
            }
        }

        fn decide(&mut self, topic: &str, groups: &[Group]) -> Look {
            decide(topic, groups, |g| {
                self.asked.push(g.to_string());
                Ok(self
                    .topics
                    .get(g)
                    .map(|ts| ts.iter().map(|t| t.to_string()).collect())
                    .unwrap_or_default())
            })
            .unwrap()
        }
    }

    fn readers(look: &Look) -> Vec<(&str, usize)> {
        look.readers
            .iter()
            .map(|r| (r.group.as_str(), r.members))
            .collect()
    }

    #[test]
    fn a_member_that_owns_a_partition_of_the_topic_blocks_it_and_no_other() {
        let groups = [
            group(
                "alice-nocommit",
                State::Stable,
                vec![
                    member(&[("alice-pay", 0)], &[]),
                    member(&[("alice-pay", 1)], &[]),
                ],
            ),
            group(
                "bob-nocommit",
                State::Stable,
                vec![member(&[("bob-pay", 0), ("bob-pay", 1)], &[])],
            ),
        ];
        let mut commits = Commits::new(&[]);
        let look = commits.decide("alice-pay", &groups);
        assert_eq!(readers(&look), [("alice-nocommit", 2)]);
        assert!(look.unsure.is_empty());
        // bob's group owns partitions of another topic: that says what it reads.
        assert!(commits.asked.is_empty(), "{:?}", commits.asked);
        // The article's name without a namespace is another topic: neither group reads `pay`.
        assert_eq!(commits.decide("pay", &groups), Look::default());
    }

    #[test]
    fn a_consumer_groups_target_assignment_counts_as_its_members_partitions() {
        let kip848 = group("kip848", State::Unknown, vec![member(&[], &[("pay", 0)])]);
        let look = Commits::new(&[]).decide("pay", &[kip848]);
        assert_eq!(readers(&look), [("kip848", 1)]);
    }

    #[test]
    fn a_group_whose_members_own_nothing_blocks_the_topic_it_has_committed() {
        // Members that own nothing yet: joining, or a rebalance that hides their partitions.
        let groups = [group(
            "nocommit",
            State::CompletingRebalance,
            vec![member(&[], &[]), member(&[], &[])],
        )];
        let look = Commits::new(&[("nocommit", &["pay"])]).decide("pay", &groups);
        assert_eq!(readers(&look), [("nocommit", 2)]);
        let look = Commits::new(&[("nocommit", &["pay"])]).decide("slow", &groups);
        assert_eq!(look, Look::default());
    }

    #[test]
    fn a_group_without_members_blocks_nothing_whatever_it_committed() {
        let groups = [group("nocommit", State::Empty, vec![])];
        let mut commits = Commits::new(&[("nocommit", &["pay"])]);
        assert_eq!(commits.decide("pay", &groups), Look::default());
        assert!(commits.asked.is_empty(), "{:?}", commits.asked);
    }

    #[test]
    fn a_group_in_its_first_rebalance_is_unsure_until_it_settles() {
        let joining = group("fresh", State::CompletingRebalance, vec![member(&[], &[])]);
        let look = Commits::new(&[]).decide("pay", std::slice::from_ref(&joining));
        assert!(look.readers.is_empty());
        assert_eq!(look.unsure, ["fresh"]);
        // Stable with nothing assigned and nothing committed: it reads nothing.
        let idle = Group {
            state: State::Stable,
            ..joining.clone()
        };
        assert_eq!(Commits::new(&[]).decide("pay", &[idle]), Look::default());
        // Rebalancing but known to read another topic: not unsure about this one.
        let known = Commits::new(&[("fresh", &["slow"])]).decide("pay", &[joining]);
        assert_eq!(known, Look::default());
    }

    #[test]
    fn owned_partitions_answer_without_asking_for_commits() {
        let groups = [group("g", State::Stable, vec![member(&[("pay", 0)], &[])])];
        let mut commits = Commits::new(&[("g", &["slow"])]);
        assert_eq!(readers(&commits.decide("pay", &groups)), [("g", 1)]);
        // Offsets of `slow` committed by an earlier run of the group do not make it a reader.
        assert_eq!(commits.decide("slow", &groups), Look::default());
        assert!(commits.asked.is_empty(), "{:?}", commits.asked);
    }

    #[test]
    fn an_error_reading_commits_is_an_error_not_a_guess() {
        let groups = [group("g", State::Stable, vec![member(&[], &[])])];
        let err = decide("pay", &groups, |_| anyhow::bail!("no answer")).unwrap_err();
        assert_eq!(err.to_string(), "no answer");
    }

    #[test]
    fn readers_are_named_with_their_live_members() {
        let r = |g: &str, n| Reader {
            group: g.into(),
            members: n,
        };
        assert_eq!(
            named(Lang::En, &[r("alice-nocommit", 2)]),
            "group alice-nocommit (2 live members)"
        );
        assert_eq!(
            named(Lang::En, &[r("a", 1), r("b", 2), r("c", 3)]),
            "groups a (1 live member), b (2 live members) and c (3 live members)"
        );
    }
}
