//! What `package.xml` says about the package besides the robot: version, maintainer, licences,
//! description. A robot crate gives its own Cargo metadata ([`crate::package_info!`]); the command
//! line may override each. The rules are `catkin_pkg`'s (`Package.validate`), so a package we
//! write is one ROS's tools accept.

/// A maintainer: `package.xml` requires the email.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maintainer {
    /// Name.
    pub name: String,
    /// Email address.
    pub email: String,
}

/// `package.xml`'s facts that are not the robot's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageInfo {
    /// `MAJOR.MINOR.PATCH`.
    pub version: String,
    /// The maintainer.
    pub maintainer: Maintainer,
    /// One `<license>` each.
    pub licenses: Vec<String>,
    /// The package's description; `None`: one saying which robot and what the package holds.
    pub description: Option<String>,
}

/// A fact `package.xml` cannot carry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackageInfoError {
    /// Not three whole numbers.
    #[error(
        "package version `{0}`: expected MAJOR.MINOR.PATCH, three whole numbers (package.xml allows no pre-release or build suffix); give one with `--package-version`"
    )]
    Version(String),
    /// Not `Name <email>`, or the email is not one.
    #[error(
        "maintainer `{0}`: expected `Name <user@example.org>` (package.xml requires each maintainer's email address)"
    )]
    Maintainer(String),
    /// No maintainer at all.
    #[error(
        "no maintainer: the crate's `authors` is empty; give one with `--maintainer \"Name <user@example.org>\"` (package.xml requires one)"
    )]
    NoMaintainer,
    /// No licence.
    #[error(
        "no license: the crate's `license` is empty; give one with `--license` (package.xml requires one)"
    )]
    NoLicense,
    /// The description is empty.
    #[error("empty description: package.xml requires one")]
    EmptyDescription,
}

impl PackageInfo {
    /// From a crate's Cargo metadata, as `env!` gives it: `authors` is Cargo's colon-separated
    /// list (the first is the maintainer), `license` an SPDX expression (`MIT OR Apache-2.0` is
    /// one `<license>` per alternative). The description is the package's own (see
    /// [`PackageInfo::description`]), not the crate's.
    pub fn from_cargo(
        version: &str,
        authors: &str,
        license: &str,
    ) -> Result<PackageInfo, PackageInfoError> {
        let first = authors
            .split(':')
            .map(str::trim)
            .find(|a| !a.is_empty())
            .ok_or(PackageInfoError::NoMaintainer)?;
        Ok(PackageInfo {
            version: check_version(version)?,
            maintainer: parse_maintainer(first)?,
            licenses: split_license(license)?,
            description: None,
        })
    }

    /// With `version` instead.
    pub fn with_version(mut self, version: &str) -> Result<PackageInfo, PackageInfoError> {
        self.version = check_version(version)?;
        Ok(self)
    }

    /// With the maintainer `Name <email>` instead.
    pub fn with_maintainer(mut self, maintainer: &str) -> Result<PackageInfo, PackageInfoError> {
        self.maintainer = parse_maintainer(maintainer)?;
        Ok(self)
    }

    /// With the licence expression `license` instead.
    pub fn with_license(mut self, license: &str) -> Result<PackageInfo, PackageInfoError> {
        self.licenses = split_license(license)?;
        Ok(self)
    }

    /// With this description instead of the generated one.
    pub fn with_description(mut self, description: &str) -> Result<PackageInfo, PackageInfoError> {
        let description = description.trim();
        if description.is_empty() {
            return Err(PackageInfoError::EmptyDescription);
        }
        self.description = Some(description.to_string());
        Ok(self)
    }
}

/// The [`PackageInfo`] of the crate this is written in, from its Cargo metadata
/// ([`PackageInfo::from_cargo`]): `robot_core::package_info!()`.
#[macro_export]
macro_rules! package_info {
    () => {
        $crate::ros_package::PackageInfo::from_cargo(
            ::core::env!("CARGO_PKG_VERSION"),
            ::core::env!("CARGO_PKG_AUTHORS"),
            ::core::env!("CARGO_PKG_LICENSE"),
        )
    };
}

/// catkin_pkg's version rule: three dot-separated whole numbers.
fn check_version(version: &str) -> Result<String, PackageInfoError> {
    let parts: Vec<&str> = version.split('.').collect();
    let whole = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if parts.len() == 3 && parts.iter().all(whole) {
        Ok(version.to_string())
    } else {
        Err(PackageInfoError::Version(version.to_string()))
    }
}

/// `Name <email>`, the email as catkin_pkg's pattern wants it (a dot and a top-level domain of
/// two letters or more after the `@`).
fn parse_maintainer(text: &str) -> Result<Maintainer, PackageInfoError> {
    let bad = || PackageInfoError::Maintainer(text.to_string());
    let (name, rest) = text.split_once('<').ok_or_else(bad)?;
    let email = rest.strip_suffix('>').ok_or_else(bad)?.trim();
    let name = name.trim();
    if name.is_empty() || name.contains(['<', '>']) || !is_email(email) {
        return Err(bad());
    }
    Ok(Maintainer {
        name: name.to_string(),
        email: email.to_string(),
    })
}

fn is_email(email: &str) -> bool {
    let Some((user, domain)) = email.split_once('@') else {
        return false;
    };
    let user_ok = |c: char| c.is_ascii_alphanumeric() || "-_%+.".contains(c);
    let domain_ok = |c: char| c.is_ascii_alphanumeric() || "-%.".contains(c);
    let labels: Vec<&str> = domain.split('.').collect();
    let tld = labels.last().copied().unwrap_or("");
    !user.is_empty()
        && user.chars().all(user_ok)
        && !user.starts_with('.')
        && !user.ends_with('.')
        && !user.contains("..")
        && domain.chars().all(domain_ok)
        && labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty())
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
}

/// An SPDX expression's alternatives (`A OR B`, Cargo's older `A/B`), one `<license>` each.
fn split_license(license: &str) -> Result<Vec<String>, PackageInfoError> {
    let licenses: Vec<String> = license
        .split(" OR ")
        .flat_map(|l| l.split('/'))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if licenses.is_empty() {
        return Err(PackageInfoError::NoLicense);
    }
    Ok(licenses)
}
